/**
 * How the session equips its agents: what a tool call of any agent runs with, and a new subagent wired to
 * the session's provider, tools, hooks, permission gate, log and compaction. The facade owns the state;
 * this reads it through the getters it is given.
 */
import type { ChatProvider } from "../provider/types.js";
import { AgentMcpServers } from "./agent-mcp.js";
import { ChildAgent, type ChildAgentSpec } from "./child-agent.js";
import { compactionOptions } from "./compaction/session-compaction.js";
import type { Emit } from "./event-sink.js";
import type { SessionMetrics } from "./session-metrics.js";
import type { AgentSessionOptions } from "./session-options.js";
import type { SessionTools } from "./session-tools.js";
import type { SessionSubagents } from "./tasks/session-subagents.js";
import type { ToolRunEnvironment } from "./tool-runner.js";
import type { ToolSet } from "./tool-set.js";
import { toolInList } from "./agents/agent-catalog.js";

export interface SessionAgentsDeps {
  options: AgentSessionOptions;
  metrics: SessionMetrics;
  toolbox: SessionTools;
  subagents(): SessionSubagents;
  provider(): ChatProvider;
  cwd(): string;
  nextTurnId(): string;
  /** The session runs in autopilot: nobody to ask when a subagent repeats itself (the repeat guard stops it). */
  unattended(): boolean;
}

export class SessionAgents {
  constructor(private readonly deps: SessionAgentsDeps) {}

  /** What a tool call of any agent of this session runs with; `emit` and `agentName` say which agent. */
  toolEnvironment(tools: ToolSet, emit: Emit, agentName?: string): ToolRunEnvironment {
    const { options, metrics } = this.deps;
    const toolHooks = options.hooks?.forTools(emit, agentName);
    return {
      ...(toolHooks ? { hooks: toolHooks } : {}),
      tools,
      cwd: this.deps.cwd(),
      sessionDir: options.dir,
      emit,
      permissions: options.permissions.forAgent(emit),
      ask: (kind, request, signal) => options.interactions.ask(kind, request, { emit, signal }),
      onCodeChange: (change) => metrics.recordCodeChange(change),
      ...(options.toolBackends ? { backends: options.toolBackends } : {}),
    };
  }

  /**
   * A subagent at `depth`: the session's tools (no mode's extras), below the depth cap its own task tool, and
   * its own skill tool over the skills its agent names (all when it names none; the named ones it starts with).
   */
  child(spec: ChildAgentSpec, depth: number): ChildAgent {
    const { options, metrics, toolbox } = this.deps;
    const provider = this.deps.provider();
    const agentName = spec.agentName ?? spec.agentId;
    const ownServers = AgentMcpServers.start(options.agentMcp, { name: agentName, mcpServers: spec.mcpServers }, options.sink.emit);
    // The skill tool as the agent's other tools: its agent's list and --available-tools / --excluded-tools decide.
    const skills = toolInList(spec.toolNames, "skill") && toolbox.offers("skill") ? options.skills : undefined;
    const skillsBlock = skills ? skills.promptBlock(spec.skills) : "";
    const child = new ChildAgent(skillsBlock ? { ...spec, systemPrompt: `${spec.systemPrompt}\n\n${skillsBlock}` } : spec, {
      sink: options.sink,
      ...(options.hooks ? { hooks: options.hooks } : {}),
      provider: options.createProvider ? options.createProvider(spec.model ?? provider.model, { initiator: "sub-agent" }) : provider,
      retry: options.retry,
      tools: (emit) => {
        const skill = skills?.tool(emit, spec.skills);
        return toolbox.forSubagent([...this.deps.subagents().childTools(depth, emit), ...(skill ? [skill] : [])]);
      },
      toolEnvironment: (tools, emit) => this.toolEnvironment(tools, emit, agentName),
      nextTurnId: this.deps.nextTurnId,
      recordRequest: (model) => metrics.recordRequest(model),
      recordCall: (call) => metrics.recordCall(call),
      onTurnEnd: () => options.syncLog(),
      unattended: this.deps.unattended,
      ...(ownServers ? { ownServers } : {}),
      compaction: (emit, agentId) => compactionOptions({ sessionDir: options.dir, settings: options.compaction, hooks: options.hooks, emit, agentId }),
    });
    if (options.skills && spec.skills)
      options.skills.preload({ name: agentName, skills: spec.skills }, options.sink.scoped({ agentId: spec.agentId, parentToolCallId: spec.parentToolCallId }));
    return child;
  }
}
