/**
 * `agent --headless --stdio` / `agent --headless --port N`: the CLI the Copilot SDK starts and drives. The
 * composition root of the server face: the server's defaults (settings, permission flags, the endpoint of
 * the environment, if any), a session manager, and the transport. Nothing but protocol messages goes to
 * stdout; everything else goes to stderr.
 */
import { settingsPath } from "../config/settings.js";
import { agentVersion } from "../core/open-session.js";
import { SessionManager } from "../core/session-manager.js";
import type { ProviderConfig } from "../config/provider-config.js";
import { createOpenAIChatProvider } from "../provider/openai-chat.js";
import { defaultRetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import { AgentServer } from "../server/agent-server.js";
import { serveStdio, serveTcp } from "../server/transports.js";
import { adviceText } from "./permission-advice-text.js";
import { bootstrapServer } from "./bootstrap.js";
import type { CliOptions } from "./cli-options.js";
import { ExitCode } from "./exit-codes.js";

export interface ServerFlags {
  /** Undefined: stdio. */
  port?: number;
}

const QUESTION_TIMEOUT_MS = Number(process.env.AGENT_SERVER_QUESTION_TIMEOUT_MS) > 0 ? Number(process.env.AGENT_SERVER_QUESTION_TIMEOUT_MS) : 10 * 60_000;

export async function runServer(options: CliOptions, flags: ServerFlags): Promise<number> {
  const log = (message: string) => process.stderr.write(`agent: ${message}\n`);
  // Whatever a library prints must not corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  const boot = await bootstrapServer(options);
  if (!boot.ok) {
    log(boot.message);
    return ExitCode.config;
  }
  const { value } = boot;
  const manager = new SessionManager({
    store: value.store,
    agentHome: value.agentHome,
    cwd: options.cwd,
    // Every session brings its own endpoint (its BYOK provider, or the environment's), resolved per request.
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
  let stopping: Promise<void> | undefined;
  let stopTcp = (): void => undefined;
  const stop = () => {
    stopping ??= server.closeAll().finally(() => {
      stopTcp();
      process.exit(ExitCode.ok);
    });
    return stopping;
  };
  const server = new AgentServer({
    manager,
    version: agentVersion(),
    cwd: options.cwd,
    permissions: value.permissions,
    ...(options.mcp ? { mcp: options.mcp } : {}),
    provider: { env: process.env, settings: value.settings, settingsFile: settingsPath(value.agentHome) },
    makeProvider: (config) => createOpenAIChatProvider(config),
    ...(value.providerConfig ? { defaultProvider: value.providerConfig } : {}),
    questionTimeoutMs: QUESTION_TIMEOUT_MS,
    ...(process.env.COPILOT_CONNECTION_TOKEN ? { connectionToken: process.env.COPILOT_CONNECTION_TOKEN } : {}),
    // The client closes the pipe (or kills the process) next; if it does neither, the process ends anyway.
    onShutdownRequest: () => setTimeout(() => void stop(), 2000).unref(),
  });
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  if (flags.port === undefined) {
    await serveStdio(server);
    await stop();
    return ExitCode.ok;
  }
  const listening = await serveTcp(server, flags.port, log);
  stopTcp = listening.close;
  process.stdout.write(`CLI server listening on port ${listening.port}\n`);
  // Runs until SIGTERM or runtime.shutdown.
  await new Promise<never>(() => undefined);
  return ExitCode.ok;
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
