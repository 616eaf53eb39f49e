/** What a session is made of: the options open-session.ts wires into an AgentSession. */
import type { AgentMode, BackgroundTasks, WorkingDirectoryContext } from "../protocol/events/index.js";
import type { McpManager } from "../mcp/index.js";
import type { RetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import type { AnyTool } from "../tools/define-tool.js";
import type { CompactionSettings } from "./compaction/compactor.js";
import type { Conversation } from "./conversation.js";
import type { InstructionFile } from "./custom-instructions.js";
import type { EventSink } from "./event-sink.js";
import type { InteractionBroker } from "./interaction-broker.js";
import type { PermissionBroker } from "./permission-broker.js";
import type { SessionHooks } from "./session-hooks.js";
import type { AgentDirectory } from "./tasks/agent-directory.js";
import type { SubagentLimits } from "./tasks/subagent-host.js";

export interface AgentSessionOptions {
  id: string;
  dir: string;
  context: WorkingDirectoryContext;
  sink: EventSink;
  conversation: Conversation;
  provider: ChatProvider;
  /**
   * Makes a provider for another model (/model, a subagent's model); without it the model cannot change.
   * `initiator: "sub-agent"` marks a subagent's requests (the x-initiator header).
   */
  createProvider?(model: string, options?: { initiator?: "sub-agent" }): ChatProvider;
  subagentLimits?: SubagentLimits;
  retry: RetryPolicy;
  mode: AgentMode;
  maxAutopilotContinues: number;
  /** A person can answer questions and permission requests. */
  interactive: boolean;
  permissions: PermissionBroker;
  interactions: InteractionBroker;
  tools: readonly AnyTool[];
  /** --available-tools / --excluded-tools: which tools the model may see at all. */
  toolFilter?: { available?: readonly string[]; excluded?: readonly string[] };
  instructions: readonly InstructionFile[];
  /** The agents a session can delegate to or run as (loaded on first use); built-ins only when absent. */
  agents?: AgentDirectory;
  backgroundTasks(): BackgroundTasks;
  /** Flushes the log to disk (turn boundaries). */
  syncLog(): void;
  /** Releases what the session holds (background shells, the log); called by shutdown(). */
  dispose(): void;
  turnCount?: number;
  /** The session's MCP servers, when any are configured: their tools join the built-in ones. */
  mcp?: McpManager;
  /** The session's hooks; absent, nothing is ever run. */
  hooks?: SessionHooks;
  /** settings.json `compaction` (threshold, auto); the defaults when absent. */
  compaction?: Partial<CompactionSettings>;
}
