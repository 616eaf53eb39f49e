/**
 * The one services object of a session: what session-assembly.ts builds once, from the session's options,
 * and every part of the session reads (the facade, the main agent, each subagent, the controls), instead of
 * closures handed from part to part. The main agent's and every subagent's runtime are made from it by one
 * function (agent-runtimes.ts).
 */
import type { McpManager } from "../mcp/index.js";
import type { SessionMemory } from "../memory/session-memory.js";
import type { AgentMode } from "../protocol/events/index.js";
import type { RetryPolicy } from "../provider/retry.js";
import type { ProviderOptions } from "../provider/session-providers.js";
import type { ChatProvider } from "../provider/types.js";
import type { ToolBackends } from "../tools/backends.js";
import type { ShellManager } from "../tools/bash/index.js";
import type { AnyTool } from "../tools/define-tool.js";
import type { JoinedClientTools } from "./client-tools.js";
import type { SessionDatabase } from "../tools/sql/index.js";
import type { AgentMcpFactory } from "./agent-mcp.js";
import type { CompactionSettings } from "./compaction/compactor.js";
import type { Conversation } from "./conversation.js";
import type { ToolStandIn } from "./replay/tool-stand-in.js";
import type { RewindHistory } from "./rewind/rewind-history.js";
import type { EventSink } from "./event-sink.js";
import type { InteractionBroker } from "./interaction-broker.js";
import type { PermissionLocations } from "./permission-locations.js";
import type { PermissionBroker } from "./permission-broker.js";
import type { SessionWorkspace } from "./session-admin/session-workspace.js";
import type { SessionHooks } from "./session-hooks.js";
import type { SessionMetrics } from "./session-metrics.js";
import type { SessionStateFold } from "./state/state-fold.js";
import type { SessionSkills } from "./skills/session-skills.js";
import type { SystemPromptShape } from "./system-prompt-shape.js";
import type { AgentDirectory } from "./tasks/agent-directory.js";
import type { SubagentLimits } from "./tasks/subagent-host.js";

export type { CommandBackend, CommandRequest, CommandResult, FileBackend, ToolBackends } from "../tools/backends.js";

/**
 * Makes a provider for another model (/model, a subagent's model): `sub-agent` marks a subagent's requests
 * (x-initiator), `reasoningEffort` is /model's choice.
 */
export type ProviderFactory = (model: string, options?: ProviderOptions) => ChatProvider;

export interface SessionServices {
  readonly id: string;
  readonly dir: string;
  /** The session's one event sink (one log, one parentId chain for every agent). */
  readonly sink: EventSink;
  /** The main agent's conversation, the fold of the log. */
  readonly conversation: Conversation;
  /** Rewind points and file snapshots, folded from the log like the conversation. */
  readonly rewind: RewindHistory;
  /** A replay's stand-in for tools: a call it answers does not run, and gets that outcome (core/replay/). */
  readonly toolStandIn?: ToolStandIn;
  readonly metrics: SessionMetrics;
  /** The session's state: the fold of every event so far (the log's too, on resume). */
  readonly state: SessionStateFold;
  /** Turn ids, one sequence for every agent of the session. */
  readonly turns: TurnCounter;
  /** Where the session works (/cwd, /add-dir), its instruction files, its name, other stored sessions. */
  readonly workspace: SessionWorkspace;
  /** The provider the session starts with. */
  readonly provider: ChatProvider;
  /** Without it the model cannot change and subagents use the session's provider. */
  readonly createProvider?: ProviderFactory;
  readonly retry: RetryPolicy;
  readonly permissions: PermissionBroker;
  /** Approvals kept for locations (an SDK app's session.permissions.locations.*). */
  readonly locations: PermissionLocations;
  readonly interactions: InteractionBroker;
  /** The built-in tools (mode-only ones included) and the face's own. */
  readonly tools: readonly AnyTool[];
  /** The tools of clients that joined the open session (join_client), each client's until it leaves. */
  readonly joinedTools?: JoinedClientTools;
  /**
   * --available-tools / --excluded-tools: which tools the model may see at all; `defaultAgentExcluded` (an SDK
   * client's defaultAgent.excludedTools): what the main agent is not offered while no custom agent is selected.
   */
  readonly toolFilter?: { available?: readonly string[]; excluded?: readonly string[]; defaultAgentExcluded?: readonly string[] | undefined };
  /** The agents a session can delegate to or run as. */
  readonly agents: AgentDirectory;
  /** The session's MCP servers, when any are configured. */
  readonly mcp?: McpManager;
  /** Starts a custom agent's own MCP servers; without it, agents' servers are not started. */
  readonly agentMcp?: AgentMcpFactory;
  /** The session's hooks; absent, nothing is ever run. */
  readonly hooks?: SessionHooks;
  /** The session's own database (the sql tool's), whose todo tables are the todo list. */
  readonly database?: SessionDatabase;
  readonly shells: ShellManager;
  /** Where the tools read and write files and run commands; local when absent. */
  readonly toolBackends?: ToolBackends;
  /** settings.json `compaction`; the defaults when absent. */
  readonly compaction?: Partial<CompactionSettings>;
  /** A face's say over the system prompt; the engine's prompt when absent. */
  readonly systemPromptShape?: SystemPromptShape;
  /** Memory: the board in the system prompt, the memory tools, /memory (src/memory); none when absent. */
  readonly memory?: SessionMemory;
  /** The session's skills and the plugins they come with (issue 19): the model's list and tool, `/<skill>`, /skills. */
  readonly skills: SessionSkills;
  readonly subagentLimits: SubagentLimits;
  /** A person can answer questions and permission requests. */
  readonly interactive: boolean;
  readonly maxAutopilotContinues: number;
  /** `--plan --autopilot`: with nobody to review it, a finished plan is accepted into autopilot. */
  readonly autoAcceptPlan: boolean;
  /** Flushes the log to disk (turn boundaries). */
  syncLog(): void;
  /** Releases what the session holds (shells, database, MCP servers, the log and its lock) once it has ended. */
  release(): void;
}

/** How a session starts: its mode, and on a resume in autopilot the objective its log ends with. */
export interface SessionStart {
  mode: AgentMode;
  objective?: string;
}

/** One sequence of turn ids for every agent of a session, going on from the log's count on a resume. */
export class TurnCounter {
  constructor(private count = 0) {}

  readonly next = (): string => String(++this.count);
}
