/** What a session is made of: the options open-session.ts wires into an AgentSession. */
import type { AgentMode, BackgroundTasks, WorkingDirectoryContext } from "../protocol/events/index.js";
import type { McpManager } from "../mcp/index.js";
import type { RetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import type { ProviderOptions } from "../provider/session-providers.js";
import type { ToolBackends } from "../tools/backends.js";
export type { CommandBackend, CommandRequest, CommandResult, FileBackend, ToolBackends } from "../tools/backends.js";
import type { AnyTool } from "../tools/define-tool.js";
import type { SessionDatabase } from "../tools/sql/index.js";
import type { CompactionSettings } from "./compaction/compactor.js";
import type { Conversation } from "./conversation.js";
import type { InstructionFile } from "./custom-instructions.js";
import type { EventSink } from "./event-sink.js";
import type { InteractionBroker } from "./interaction-broker.js";
import type { PermissionBroker } from "./permission-broker.js";
import type { SessionHooks } from "./session-hooks.js";
import type { SystemPromptShape } from "./system-prompt-shape.js";
import type { SessionStore } from "../session/session-store.js";
import type { AgentDirectory } from "./tasks/agent-directory.js";
import type { SubagentLimits } from "./tasks/subagent-host.js";
import type { SessionMemory } from "../memory/session-memory.js";

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
  createProvider?(model: string, options?: ProviderOptions): ChatProvider;
  subagentLimits?: SubagentLimits;
  retry: RetryPolicy;
  mode: AgentMode;
  /** Autopilot's objective, as a resumed session's log left it. */
  objective?: string;
  maxAutopilotContinues: number;
  /** A person can answer questions and permission requests. */
  interactive: boolean;
  permissions: PermissionBroker;
  interactions: InteractionBroker;
  tools: readonly AnyTool[];
  /** --available-tools / --excluded-tools: which tools the model may see at all. */
  /** `defaultAgentExcluded`: what the main agent is not offered while no custom agent is selected. */
  toolFilter?: { available?: readonly string[]; excluded?: readonly string[]; defaultAgentExcluded?: readonly string[] | undefined };
  instructions: readonly InstructionFile[];
  /** The agents a session can delegate to or run as (loaded on first use); built-ins only when absent. */
  agents?: AgentDirectory;
  backgroundTasks(): BackgroundTasks;
  /** Stops a background shell (its whole process group); false when there is no such running shell. */
  stopShell?(shellId: string): Promise<boolean>;
  /** Flushes the log to disk (turn boundaries). */
  syncLog(): void;
  /** Releases what the session holds (background shells, the log); called by shutdown(). */
  dispose(): void;
  turnCount?: number;
  /** The session's MCP servers, when any are configured: their tools join the built-in ones. */
  mcp?: McpManager;
  /** Where the session is stored (/session delete removes others from it). */
  store?: SessionStore;
  /** Starts a custom agent's own MCP servers (`mcp-servers`); without it, agents' servers are not started. */
  agentMcp?: import("./agent-mcp.js").AgentMcpFactory;
  /** The session's hooks; absent, nothing is ever run. */
  hooks?: SessionHooks;
  /** The session's own database (the sql tool's), whose todo tables are the todo list. */
  database?: SessionDatabase;
  /** Where the tools read and write files and run commands; local when absent. */
  toolBackends?: ToolBackends;
  /** settings.json `compaction` (threshold, auto); the defaults when absent. */
  compaction?: Partial<CompactionSettings>;
  /** A face's say over the system prompt (an SDK client's replace / customize); the engine's prompt when absent. */
  systemPromptShape?: SystemPromptShape;
  /** Memory: the board in the system prompt, the memory tools, /memory (src/memory); none when absent. */
  memory?: SessionMemory;
}
