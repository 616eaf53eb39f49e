/**
 * Every agent of a session, the main one and each subagent, runs on a runtime made here from the session's
 * services: one retry policy, one sequence of turn ids, one set of metrics, the log flushed at each turn's
 * end, the same tool environment (the permission gate and broker, the hooks, the client's backends) and
 * compaction. What differs between agents (their conversation, tools, mode, prompts) is their profile.
 */
import type { Emit } from "./event-sink.js";
import { Compactor } from "./compaction/compactor.js";
import { compactionOptions } from "./compaction/session-compaction.js";
import { AgentRuntime, type AgentRuntimeOptions } from "./runtime/agent-runtime.js";
import type { SessionServices } from "./session-services.js";
import type { ToolRunEnvironment } from "./tool-runner.js";
import { withStandIn } from "./replay/tool-stand-in.js";
import type { ToolSet } from "./tool-set.js";

/** What is an agent's own; everything else its runtime takes from the session's services. */
export type AgentProfile = Omit<
  AgentRuntimeOptions,
  "retry" | "toolEnvironment" | "nextTurnId" | "recordRequest" | "recordCall" | "onTurnEnd" | "compactor"
> & {
  /** A subagent's id: its compaction is its own. None for the main agent. */
  agentId?: string;
  /** The agent's name for its tool calls' hooks (agentName); none for the main agent. */
  agentName?: string;
};

export function createAgentRuntime(services: SessionServices, profile: AgentProfile): AgentRuntime {
  const { agentId, agentName, ...own } = profile;
  const { metrics, retry } = services;
  const recordRequest = (model: string) => metrics.recordRequest(model);
  const recordCall: AgentRuntimeOptions["recordCall"] = (call) => metrics.recordCall(call);
  // The agent compacts its own conversation, with its own provider and tools, into the session's folder.
  const compactor = new Compactor({
    ...compactionOptions({ sessionDir: services.dir, settings: services.compaction, hooks: services.hooks, emit: own.emit, ...(agentId ? { agentId } : {}) }),
    emit: own.emit,
    conversation: own.conversation,
    provider: own.provider,
    retry,
    tools: own.tools,
    recordRequest,
    recordCall,
  });
  return new AgentRuntime({
    ...own,
    retry,
    toolEnvironment: (tools) => toolEnvironment(services, tools, own.emit, agentName),
    nextTurnId: services.turns.next,
    recordRequest,
    recordCall,
    onTurnEnd: () => services.syncLog(),
    compactor,
  });
}

/** What a tool call of any agent of the session runs with; `emit` and `agentName` say which agent. */
export function toolEnvironment(services: SessionServices, tools: ToolSet, emit: Emit, agentName?: string): ToolRunEnvironment {
  const toolHooks = services.hooks?.forTools(emit, agentName);
  return {
    ...(toolHooks ? { hooks: toolHooks } : {}),
    tools,
    cwd: services.workspace.cwd,
    sessionDir: services.dir,
    emit,
    permissions: services.permissions.forAgent(emit),
    ask: (kind, request, signal) => services.interactions.ask(kind, request, { emit, signal }),
    onCodeChange: (change) => services.metrics.recordCodeChange(change),
    ...(services.toolBackends ? { backends: services.toolBackends } : {}),
    around: withStandIn(services.toolStandIn, services.rewind.snapshots.around),
  };
}
