/**
 * Where a provider's key or bearer token comes from: a value (a variable, settings, providers.json) or a
 * command that prints it (apiKeyCommand, COPILOT_PROVIDER_API_KEY_COMMAND). A command runs once and its key
 * is kept; after a 401 it runs again. Each credential knows its source (a variable or file, never the value),
 * so a failed authentication can say where the key came from, and the values it gave, so messages can be
 * scrubbed of them.
 */
import { createRequire } from "node:module";
import { ProviderError } from "./provider-error.js";

export interface Credential {
  /** How it is sent: an API key (Authorization, api-key or x-api-key by provider type) or a bearer token. */
  readonly kind: "apiKey" | "bearer";
  /** Where it comes from, in words: `COPILOT_PROVIDER_API_KEY`, `apiKeyCommand of provider "x" in /…/providers.json`. */
  readonly source: string;
  /** The value; a command runs the first time (and again after `invalidate`). */
  get(): Promise<string>;
  /** After a 401: whether asking again may give another value (a command's may). */
  invalidate(): boolean;
  /** Every value handed out so far. */
  secrets(): string[];
  /** Whether a command prints it (a refusal then means the command's key, run again, was refused too). */
  readonly fromCommand?: boolean;
}

export function valueCredential(value: string, kind: Credential["kind"], source: string): Credential {
  return { kind, source, get: () => Promise.resolve(value), invalidate: () => false, secrets: () => [value] };
}

/**
 * A token asked for before every request (an SDK client's bearerTokenProvider): never kept, as the one who
 * gives it owns its caching and refresh.
 */
export function callbackCredential(ask: () => Promise<string>, kind: Credential["kind"], source: string): Credential {
  const given: string[] = [];
  return {
    kind,
    source,
    async get() {
      let value: string;
      try {
        value = await ask();
      } catch (error) {
        throw new ProviderError("authentication", `No token came from ${source}: ${(error as Error).message}`, { cause: error });
      }
      if (!value) throw new ProviderError("authentication", `${source} gave an empty token.`);
      given.push(value);
      return value;
    },
    invalidate: () => true,
    secrets: () => [...given],
  };
}

/** Runs a key command with the shell; its trimmed standard output is the key. */
export type KeyCommandRunner = (command: string) => Promise<string>;

const KEY_COMMAND_TIMEOUT_MS = 30_000;

// node:child_process (and the dgram and net modules it brings) is loaded only when a key command runs; by
// require, which a script bundle has as well as a module (where a script has no import()).
const requireBuiltin = createRequire(import.meta.url);

export const runKeyCommand: KeyCommandRunner = (command) => {
  const { execFile } = requireBuiltin("node:child_process") as typeof import("node:child_process");
  return new Promise((resolve, reject) => {
    execFile("/bin/sh", ["-c", command], { timeout: KEY_COMMAND_TIMEOUT_MS, maxBuffer: 1024 * 1024, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) {
        const why = error.killed ? `it did not finish in ${KEY_COMMAND_TIMEOUT_MS / 1000} s` : `it failed (${String(error.code ?? error.message)})`;
        // Only stderr's first line: a command that fails may still have printed a key on stdout.
        const detail = stderr.trim().split("\n")[0] ?? "";
        reject(new Error(`${why}${detail ? `: ${detail.slice(0, 200)}` : ""}`));
        return;
      }
      resolve(stdout.trim());
    });
  });
};

export function commandCredential(command: string, kind: Credential["kind"], source: string, run: KeyCommandRunner = runKeyCommand): Credential {
  let current: Promise<string> | undefined;
  const given: string[] = [];
  return {
    kind,
    source,
    fromCommand: true,
    get() {
      current ??= run(command).then(
        (value) => {
          if (value === "") throw new ProviderError("authentication", `The key command (${source}) printed nothing.`);
          given.push(value);
          return value;
        },
        (error: unknown) => {
          current = undefined; // the next request tries again
          throw new ProviderError("authentication", `The key command (${source}) ${(error as Error).message}.`, { cause: error });
        },
      );
      return current;
    },
    invalidate() {
      current = undefined;
      return true;
    },
    secrets: () => [...given],
  };
}

/** The text with every secret replaced; short values are left alone (they would blank out ordinary words). */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) if (secret.length >= 8) scrubbed = scrubbed.split(secret).join("[redacted]");
  return scrubbed;
}

/** What to do when no key was sent, for a provider of providers.json (named) or of the environment and settings. */
function noKeyAdvice(providerName: string | undefined): string {
  if (providerName) return `No API key was sent: set apiKey, apiKeyCommand or bearerToken of provider "${providerName}" in providers.json.`;
  return "No API key was sent: set OPENAI_API_KEY (or COPILOT_PROVIDER_API_KEY), or provider.apiKey or provider.apiKeyEnv in settings.json.";
}

/**
 * The error with the credential's values scrubbed from its message, and on a 401 or 403 where the key came
 * from (or that none was sent), so the person knows which one to fix.
 */
export function explainCredentialError(error: ProviderError, credential: Credential | undefined, providerName?: string): ProviderError {
  const message = credential ? scrubSecrets(error.message, credential.secrets()) : error.message;
  if (error.kind !== "authentication" || error.statusCode === undefined) {
    return message === error.message ? error : new ProviderError(error.kind, message, error.details);
  }
  if (!credential) return new ProviderError(error.kind, `${message} ${noKeyAdvice(providerName)}`, error.details);
  const what = credential.kind === "bearer" ? "bearer token" : "API key";
  const allowed = error.statusCode === 403 ? " and allowed to use this model" : "";
  const check = credential.fromCommand
    ? `, which was run again after the first refusal; check that the key it prints is right for this endpoint${allowed}`
    : `; check that it is right for this endpoint${allowed}`;
  return new ProviderError(error.kind, `${message} The ${what} came from ${credential.source}${check}.`, error.details);
}
