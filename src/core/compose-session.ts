/**
 * The one place a session's options are made: from settings.json, the command line's flags (as data), where
 * sessions live, the endpoint, the permission setup, and what the face itself says (whether a person answers,
 * its listeners, its hooks, its words for advice). Every face and the test harness build their session
 * manager's defaults here, so a setting a user made reaches every face alike (settings.compaction once
 * reached only two of them).
 */
import type { ProviderConfig } from "../config/provider-config.js";
import type { Settings } from "../config/settings.js";
import { setMemoryEnabled } from "../config/settings-update.js";
import { memoryEnabledAtStart, memorySettings } from "../memory/memory-settings.js";
import type { McpSessionOptions } from "../mcp/index.js";
import type { AgentMode } from "../protocol/events/index.js";
import type { ModelRegistry } from "../provider/model-registry.js";
import { defaultRetryPolicy } from "../provider/retry.js";
import { sessionProviders } from "../provider/session-providers.js";
import { createWireProvider } from "../provider/wire-provider.js";
import type { ChatProvider } from "../provider/types.js";
import type { SessionStore } from "../session/session-store.js";
import type { OpenSessionOptions, SessionPermissions } from "./open-session.js";
import type { SubagentLimits } from "./tasks/subagent-host.js";

/** The command line's say over a session, as data (the CLI's parsed options satisfy it). */
export interface SessionFlags {
  cwd: string;
  mode?: AgentMode;
  customInstructions: boolean;
  /** --additional-mcp-config, --disable-mcp-server, --secret-env-vars. */
  mcp?: McpSessionOptions;
  /** --plan --autopilot: a plan nobody can review is accepted into autopilot. */
  autoAcceptPlan?: boolean;
  /** --enable-memory: memory is on whatever the face and settings.json say. */
  enableMemory?: boolean;
}

/** What only the face knows: who answers, what it listens to, its hooks, its words for advice. */
export type FaceOverrides = { interactive: boolean } & Partial<Omit<OpenSessionOptions, "interactive">>;

export interface SessionComposition {
  settings: Settings;
  flags: SessionFlags;
  agentHome: string;
  copilotHome?: string;
  store: SessionStore;
  /** The endpoint; absent where every session brings its own (the SDK server). */
  providerConfig?: ProviderConfig;
  /** Every model a session can switch to or give a subagent (providers.json's and the endpoint's); the endpoint's alone when absent. */
  registry?: ModelRegistry;
  /** Makes a provider from a config; the one for its wire (wire-provider.ts) when absent. */
  makeProvider?(config: ProviderConfig): ChatProvider;
  permissions: SessionPermissions;
  /** The command line's --max-autopilot-continues, else settings.json's, else 5 (the bootstrap settles it). */
  maxAutopilotContinues: number;
  subagentLimits: SubagentLimits;
  /** Whose rule decides whether memory is on at the start (-p keeps it off without --enable-memory); none: no memory. */
  memory?: "prompt" | "interactive" | "server";
  face: FaceOverrides;
}

export function composeSessionOptions(input: SessionComposition): OpenSessionOptions {
  const { settings, flags, face } = input;
  const providers = input.providerConfig
    ? sessionProviders(input.providerConfig, input.makeProvider ?? createWireProvider, input.registry)
    : { provider: noEndpoint };
  return {
    store: input.store,
    agentHome: input.agentHome,
    ...(input.copilotHome ? { copilotHome: input.copilotHome } : {}),
    cwd: flags.cwd,
    ...providers,
    providerConfig: input.providerConfig ?? noEndpointConfig,
    ...(flags.mode ? { mode: flags.mode } : {}),
    ...(flags.autoAcceptPlan ? { autoAcceptPlan: true } : {}),
    maxAutopilotContinues: input.maxAutopilotContinues,
    subagentLimits: input.subagentLimits,
    ...(settings.compaction ? { compaction: settings.compaction } : {}),
    permissions: input.permissions,
    customInstructions: flags.customInstructions,
    ...(flags.mcp ? { mcp: flags.mcp } : {}),
    ...(input.memory ? { memory: memoryOptions(input, input.memory) } : {}),
    ...face,
  };
}

/** Memory for a face's sessions: on or off from --enable-memory and settings.json, and /memory on|off kept in settings.json. */
function memoryOptions(input: SessionComposition, face: NonNullable<SessionComposition["memory"]>): NonNullable<OpenSessionOptions["memory"]> {
  const settings = memorySettings(input.settings.memory);
  return {
    enabled: memoryEnabledAtStart({ flag: input.flags.enableMemory === true, prompt: face === "prompt", settings }),
    settings,
    persist: (enabled) => {
      try {
        setMemoryEnabled(input.agentHome, enabled);
        return undefined;
      } catch (error) {
        return `It could not be kept for later sessions: ${(error as Error).message}`;
      }
    },
  };
}

/** Stands in for an endpoint where there is none by default: each session names its own (the SDK server). */
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
