/**
 * A custom agent's own MCP servers (`mcp-servers` in its file): started when that agent runs (as the main
 * agent through --agent or /agent, or as a subagent), their tools offered to it alone, stopped with it.
 * The agent's prompts wait for them as the session's prompts wait for its servers.
 */
import type { McpManager } from "../mcp/index.js";
import type { AnyTool } from "../tools/define-tool.js";
import type { Emit } from "./event-sink.js";
import { McpStartupGate } from "./mcp-startup.js";

/** Makes the manager of an agent's servers (open-session.ts wires it with the session's MCP options). */
export type AgentMcpFactory = (agentName: string, servers: Record<string, unknown>) => McpManager | undefined;

export class AgentMcpServers {
  private readonly gate: McpStartupGate;

  private constructor(
    private readonly manager: McpManager,
    emit: Emit,
  ) {
    this.gate = new McpStartupGate(manager, emit);
    manager.start();
  }

  /** Starts the agent's servers, or undefined when it has none (or the session cannot start any). */
  static start(factory: AgentMcpFactory | undefined, agent: { name: string; mcpServers?: Record<string, unknown> }, emit: Emit): AgentMcpServers | undefined {
    if (!factory || !agent.mcpServers || Object.keys(agent.mcpServers).length === 0) return undefined;
    const manager = factory(agent.name, agent.mcpServers);
    return manager ? new AgentMcpServers(manager, emit) : undefined;
  }

  tools(): AnyTool[] {
    return this.manager.tools();
  }

  /** Resolves once the servers this prompt needs are ready or have failed (see McpStartupGate). */
  ready(prompt: string): Promise<void> {
    return this.gate.wait(prompt) ?? Promise.resolve();
  }

  close(): Promise<void> {
    return this.manager.close();
  }
}

/** The main agent's selected agent's servers: replaced when another agent is selected, stopped when none is. */
export class SelectedAgentMcp {
  private current?: AgentMcpServers;

  constructor(
    private readonly factory: AgentMcpFactory | undefined,
    private readonly emit: Emit,
  ) {}

  select(agent: { name: string; mcpServers?: Record<string, unknown> } | undefined): void {
    void this.current?.close();
    this.current = agent ? AgentMcpServers.start(this.factory, agent, this.emit) : undefined;
  }

  tools(): AnyTool[] {
    return this.current?.tools() ?? [];
  }

  ready(prompt: string): Promise<void> | undefined {
    return this.current?.ready(prompt);
  }

  close(): void {
    this.select(undefined);
  }
}
