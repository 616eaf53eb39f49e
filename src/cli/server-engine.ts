/**
 * The engine side of the server, loaded in the background while the handshake is answered: the command
 * line (the caller's own flags, e.g. --allow-all-tools, --model), settings and permission rules, the
 * session store, and the SessionHost over a SessionManager. Each session brings its endpoint (its BYOK
 * provider, or the environment's), so a server without a configured endpoint still starts.
 */
import type { ProviderConfig } from "../config/provider-config.js";
import { settingsPath } from "../config/settings.js";
import { SessionManager } from "../core/session-manager.js";
import { createOpenAIChatProvider } from "../provider/openai-chat.js";
import { defaultRetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import { SessionHost } from "../server/session-host.js";
import { bootstrapServer } from "./bootstrap.js";
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
    makeProvider: (config) => createOpenAIChatProvider(config),
    ...(value.providerConfig ? { defaultProvider: value.providerConfig } : {}),
    questionTimeoutMs: QUESTION_TIMEOUT_MS,
  });
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
