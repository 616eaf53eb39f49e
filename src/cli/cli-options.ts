/** The parsed command line, shared by the headless runner and the TUI. */
import type { AgentMode } from "../protocol/events/index.js";
import type { PermissionFlags } from "../permissions/policy.js";
import type { McpSessionOptions } from "../mcp/index.js";

export interface CliOptions {
  /** -p's prompt. */
  prompt?: string;
  /** -p given without a prompt: it is read from stdin. */
  promptFromStdin?: boolean;
  /** The TUI's first prompt: -i's (`interactive`), or the prompt given as the only argument. */
  firstPrompt?: { text: string; interactive: boolean };
  silent: boolean;
  outputFormat: "text" | "json";
  mode?: AgentMode;
  /** --plan --autopilot: a finished plan is accepted into autopilot without a review. */
  autoAcceptPlan?: boolean;
  /** --fleet: the first prompt runs as `/fleet <prompt>`. */
  fleet?: boolean;
  maxAutopilotContinues?: number;
  /** --max-turns: model calls a subagent may make per prompt. */
  maxTurns?: number;
  model?: string;
  /** --reasoning-effort: none, minimal, low, medium, high or xhigh. */
  reasoningEffort?: string;
  /** --agent: the custom agent to run the session as. */
  agent?: string;
  /** --resume with a value; `true` when given without one (the picker). */
  resume?: string | true;
  continue: boolean;
  /** --fork with --resume/--continue: go on in a copy; a prompt number or event id to copy up to (`true`: all). */
  fork?: string | true;
  name?: string;
  permissions: PermissionFlags;
  customInstructions: boolean;
  /** false with --no-hooks. */
  hooks: boolean;
  /** --additional-mcp-config, --disable-mcp-server, --secret-env-vars. */
  mcp?: McpSessionOptions;
  cwd: string;
  /** --reset-allowed-tools: forget the approvals remembered for cwd instead of running anything. */
  resetAllowedTools?: boolean;
  /** --acp: serve the Agent Client Protocol on stdio instead of running a prompt or the TUI. */
  acp?: boolean;
  /** --headless (the Copilot SDK's server mode): JSON-RPC on stdio, or on a TCP port. */
  server?: { port?: number };
  /** --enable-memory: memory on for this run, `-p` included (see src/memory). */
  enableMemory?: boolean;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

const TRUTHY = new Set(["1", "true", "yes", "on", "y"]);

export function envAllowsAll(env: NodeJS.ProcessEnv): boolean {
  return envAllowAllSources(env).length > 0;
}

/** The variables that switch --allow-all-tools on, by name. */
export function envAllowAllSources(env: NodeJS.ProcessEnv): string[] {
  return (["AGENT_ALLOW_ALL", "COPILOT_ALLOW_ALL"] as const).filter((name) => {
    const value = env[name];
    return value !== undefined && TRUTHY.has(value.trim().toLowerCase());
  });
}
