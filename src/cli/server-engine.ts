/**
 * The engine side of the server, loaded in the background while the handshake is answered: the command
 * line (the caller's own flags, e.g. --allow-all-tools, --model), settings and permission rules, the
 * session store, and the SessionHost over a SessionManager. Each session brings its endpoint (its BYOK
 * provider, or the environment's), so a server without a configured endpoint still starts.
 */
import { settingsPath } from "../config/settings.js";
import { loadEngine } from "../core/index.js";
import { createWireProvider } from "../provider/wire-provider.js";
import { SessionHost } from "../server/session-host.js";
import type { ClientInference } from "../server/client-inference.js";
import { bootstrapServer, homesOf } from "./bootstrap.js";
import { anyHooksConfigured, hookPolicy } from "./hook-files-present.js";
import type { HookConfigInput } from "./session-hook-config.js";
import type { HookSet } from "../hooks/hook-set.js";
import { adviceText } from "./permission-advice-text.js";
import { parseCommandLine } from "./program.js";

const QUESTION_TIMEOUT_MS = Number(process.env.AGENT_SERVER_QUESTION_TIMEOUT_MS) > 0 ? Number(process.env.AGENT_SERVER_QUESTION_TIMEOUT_MS) : 10 * 60_000;

export async function loadSessionHost(args: readonly string[], inference?: ClientInference): Promise<SessionHost> {
  const options = parseCommandLine(args);
  const boot = await bootstrapServer(options);
  if (!boot.ok) throw new Error(boot.message);
  const { value } = boot;
  const { SessionManager, composeSessionOptions } = await loadEngine();
  // Every session brings its own endpoint, resolved per request: the manager's defaults name none.
  const { providerConfig: _perSession, registry: _alsoPerSession, ...sources } = value;
  const manager = new SessionManager(
    composeSessionOptions({ ...sources, flags: options, memory: "server", face: { interactive: false, explainAdvice: adviceText } }),
  );
  return new SessionHost({
    manager,
    provider: { ...(options.model ? { model: options.model } : {}), env: process.env, settings: value.settings, settingsFile: settingsPath(value.agentHome) },
    makeProvider: (config) => createWireProvider(config),
    ...(value.providerConfig ? { defaultProvider: value.providerConfig } : {}),
    questionTimeoutMs: QUESTION_TIMEOUT_MS,
    ...(inference ? { inference } : {}),
    fileHooks: (cwd) =>
      fileHooks({
        ...homesOf(value),
        cwd,
        settings: value.settings,
        enabled: options.hooks,
        ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
      }),
    hookPolicy: hookPolicy(value.settings),
  });
}

/**
 * A session's hook files, as -p loads them: the user's and settings' always, the repository's only where
 * folder trust lets them run (nobody can be asked here). Left out, they are named in a warning the client receives.
 * The hook code and its schemas load only where there is a hook to load, as for -p.
 */
async function fileHooks(input: HookConfigInput): Promise<HookSet | undefined> {
  if (!input.enabled || !anyHooksConfigured(input, input.cwd, input.settings, input.pluginDirs)) return undefined;
  const [{ hookConfig, untrustedNote }, { HookSet }] = await Promise.all([import("./session-hook-config.js"), import("../hooks/hook-set.js")]);
  const config = hookConfig(input);
  const loaded = config.load(config.trusted);
  if (config.repoFiles.length === 0 || config.trusted) return loaded;
  return new HookSet(loaded?.definitions ?? [], input.cwd, [...(loaded?.problems ?? []), untrustedNote(config, input.agentHome)], hookPolicy(input.settings));
}
