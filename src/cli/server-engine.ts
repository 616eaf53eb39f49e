/**
 * The engine side of the server, loaded in the background while the handshake is answered: the command
 * line (the caller's own flags, e.g. --allow-all-tools, --model), settings and permission rules, the
 * session store, and the SessionHost over a SessionManager. Each session brings its endpoint (its BYOK
 * provider, or the environment's), so a server without a configured endpoint still starts.
 */
import type { ProviderConfig } from "../config/provider-config.js";
import { settingsPath } from "../config/settings.js";
import { SessionManager } from "../core/session-manager.js";
import { createWireProvider } from "../provider/wire-provider.js";
import { defaultRetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import { SessionHost } from "../server/session-host.js";
import { bootstrapServer } from "./bootstrap.js";
import { anyHooksConfigured } from "./hook-files-present.js";
import { hookConfig } from "./session-hook-config.js";
import { configFilePath } from "../config/folder-trust.js";
import { HookSet } from "../hooks/hook-set.js";
import type { Settings } from "../config/settings.js";
import { adviceText } from "./permission-advice-text.js";
import { parseCommandLine } from "./program.js";

const QUESTION_TIMEOUT_MS = Number(process.env.AGENT_SERVER_QUESTION_TIMEOUT_MS) > 0 ? Number(process.env.AGENT_SERVER_QUESTION_TIMEOUT_MS) : 10 * 60_000;

export async function loadSessionHost(args: readonly string[]): Promise<SessionHost> {
  const options = parseCommandLine(args);
  const boot = await bootstrapServer(options);
  if (!boot.ok) throw new Error(boot.message);
  const { value } = boot;
  const manager = new SessionManager({
    store: value.store,
    agentHome: value.agentHome,
    cwd: options.cwd,
    // Every session brings its own endpoint, resolved per request; these are never used.
    provider: noEndpoint,
    providerConfig: { ...noEndpointConfig, ...value.providerConfig },
    ...(options.mode ? { mode: options.mode } : {}),
    maxAutopilotContinues: value.maxAutopilotContinues,
    subagentLimits: value.subagentLimits,
    interactive: false,
    permissions: value.permissions,
    customInstructions: options.customInstructions,
    explainAdvice: adviceText,
  });
  return new SessionHost({
    manager,
    cwd: options.cwd,
    permissions: value.permissions,
    ...(options.mcp ? { mcp: options.mcp } : {}),
    provider: { ...(options.model ? { model: options.model } : {}), env: process.env, settings: value.settings, settingsFile: settingsPath(value.agentHome) },
    makeProvider: (config) => createWireProvider(config),
    ...(value.providerConfig ? { defaultProvider: value.providerConfig } : {}),
    questionTimeoutMs: QUESTION_TIMEOUT_MS,
    fileHooks: (cwd) => fileHooks({ agentHome: value.agentHome, cwd, settings: value.settings, enabled: options.hooks }),
  });
}

/**
 * A session's hook files, as -p loads them: the user's and settings' always, the repository's only in a
 * trusted folder (nobody can be asked here). Left out, they are named in a warning the client receives.
 */
function fileHooks(input: { agentHome: string; cwd: string; settings: Settings; enabled: boolean }): HookSet | undefined {
  if (!input.enabled || !anyHooksConfigured(input.agentHome, input.cwd, input.settings)) return undefined;
  const config = hookConfig(input);
  const loaded = config.load(config.trusted);
  if (config.repoFiles.length === 0 || config.trusted) return loaded;
  const note =
    `${config.repoFiles.join(", ")}: this folder is not trusted, so its repository hooks do not run. ` +
    `To trust it, add "${input.cwd}" to "trustedFolders" in ${configFilePath(input.agentHome)}.`;
  return new HookSet(loaded?.definitions ?? [], input.cwd, [...(loaded?.problems ?? []), note]);
}

/** Stands in for the manager's default endpoint, which a server never uses: each session names its own. */
const noEndpoint: ChatProvider = {
  model: "none",
  limits: { maxPromptTokens: 0 },
  apiEndpoint: "",
  stream: () => Promise.reject(new Error("No endpoint is configured for this session.")),
};

const noEndpointConfig: ProviderConfig = {
  type: "openai",
  baseUrl: "",
  model: "none",
  maxPromptTokens: 0,
  headers: {},
  azureApiVersion: "",
  timeoutMs: 0,
  streamIdleTimeoutMs: 0,
  retry: defaultRetryPolicy,
};
