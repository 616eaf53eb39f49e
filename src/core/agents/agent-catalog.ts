/**
 * The agents a session knows: built-in, the user's and the repository's. Loaded on first use only, so a
 * session that never delegates or picks an agent reads no agent file; loaded again when the files changed
 * (an agent added while the TUI runs is there for /agent and the task tool without a restart). Each load
 * problem is reported once.
 */
import {
  agentFilesStamp,
  describeAgentFileProblem,
  loadAgentFiles,
  type AgentDefinition,
  type AgentFileLocations,
  type AgentFileProblem,
} from "../../config/agent-files.js";

import type { SessionCommand } from "../../protocol/commands.js";
import type { SessionEvent } from "../../protocol/events/index.js";
import type { Emit } from "../event-sink.js";

export type { AgentDefinition, AgentFileProblem, AgentSource } from "../../config/agent-files.js";

export interface AgentCatalogOptions extends AgentFileLocations {
  /** Told about files that failed to load or loaded with something dropped (each problem once). */
  onProblems?(problems: { errors: AgentFileProblem[]; warnings: AgentFileProblem[] }): void;
  /** Agents a client defined for this session (no file): listed first, before files of the same name. */
  extra?: readonly AgentDefinition[];
}

/** Whether an agent may use a tool (no list means every tool). */
export function agentAllowsTool(agent: Pick<AgentDefinition, "tools">, tool: string | ToolIdentity): boolean {
  return agentListAllows(agent.tools, tool);
}

/** An agent's `tools` list read for one tool: a tool only a list can name (Tool.onlyWhenListed) must be named in it. */
export function agentListAllows(list: readonly string[] | undefined, tool: string | ToolIdentity): boolean {
  if (typeof tool !== "string" && tool.onlyWhenListed === true && !list?.includes(tool.name)) return false;
  return toolInList(list, tool);
}

/** A tool as an agent's `tools` list can name it: our name, or (an MCP tool) `server/tool` or `server/*`, Copilot's spelling. */
export interface ToolIdentity {
  name: string;
  mcp?: { serverName: string; toolName: string };
  /** A tool an SDK application supplies (Copilot's "custom" tools). */
  client?: boolean;
  /** Only an agent's list that names the tool gives it to the agent (see Tool.onlyWhenListed). */
  onlyWhenListed?: boolean;
}

/**
 * Whether a tool list names this tool: by our name (an MCP tool's is `server-tool`), `*` for every tool,
 * Copilot's `server/tool` and `server/*` for MCP tools, or the SDK's source-qualified patterns
 * (`builtin:<name>`, `custom:<name>`, `mcp:<name>`, each also with `*`). The same reading for agent files
 * and for --available-tools / --excluded-tools.
 */
export function toolInList(list: readonly string[] | undefined, tool: string | ToolIdentity): boolean {
  if (list === undefined) return true;
  const { name, mcp, client } = typeof tool === "string" ? { name: tool, mcp: undefined, client: false } : tool;
  if (list.includes(name) || list.includes("*")) return true;
  const source = mcp ? "mcp" : client ? "custom" : "builtin";
  if (list.includes(`${source}:*`) || list.includes(`${source}:${name}`)) return true;
  return mcp !== undefined && (list.includes(`${mcp.serverName}/${mcp.toolName}`) || list.includes(`${mcp.serverName}/*`));
}

export class AgentCatalog {
  private loaded: AgentDefinition[] | undefined;
  /** The files' stamp when they were loaded. */
  private stamp: string | undefined;
  private readonly reported = new Set<string>();

  constructor(private readonly options: AgentCatalogOptions) {}

  /** Every agent: custom ones (user, repo) first, then built-ins. */
  list(): readonly AgentDefinition[] {
    const stamp = agentFilesStamp(this.options);
    if (!this.loaded || stamp !== this.stamp) {
      const { agents, errors, warnings } = loadAgentFiles(this.options);
      const extra = this.options.extra ?? [];
      const files = agents.filter((agent) => !extra.some((own) => own.name === agent.name));
      this.loaded = [...extra, ...files.filter((agent) => agent.source !== "builtin"), ...files.filter((agent) => agent.source === "builtin")];
      this.stamp = stamp;
      const fresh = (problem: AgentFileProblem) => !this.reported.has(describeAgentFileProblem(problem));
      const problems = { errors: errors.filter(fresh), warnings: warnings.filter(fresh) };
      for (const problem of [...problems.errors, ...problems.warnings]) this.reported.add(describeAgentFileProblem(problem));
      if (problems.errors.length + problems.warnings.length > 0) this.options.onProblems?.(problems);
    }
    return this.loaded;
  }

  get(name: string): AgentDefinition | undefined {
    return this.list().find((agent) => agent.name === name);
  }

  /** The agents the model may start with the `task` tool. */
  modelInvocable(): AgentDefinition[] {
    return this.list().filter((agent) => agent.modelInvocable);
  }

  /** The agents a person may select for the main session. */
  userInvocable(): AgentDefinition[] {
    return this.list().filter((agent) => agent.userInvocable);
  }
}

/**
 * The agent a person (or --agent) may run the session as: a user-invocable one, or a hidden built-in by its
 * exact name (the rem-agent, which the detached memory consolidation runs as).
 */
export function selectableAgent(agents: readonly AgentDefinition[], name: string): AgentDefinition | undefined {
  return agents.find((agent) => agent.name === name && (agent.userInvocable || agent.source === "builtin"));
}

/**
 * The agent types for the `task` tool's description: custom agents first, with a nudge to prefer them
 * when one fits, then the built-ins.
 */
export function describeAgentTypes(agents: readonly AgentDefinition[]): string {
  const line = (agent: AgentDefinition) => `- ${agent.name}: ${agent.description.replace(/\s+/g, " ")}`;
  const custom = agents.filter((agent) => agent.modelInvocable && agent.source !== "builtin");
  const builtin = agents.filter((agent) => agent.modelInvocable && agent.source === "builtin");
  const parts: string[] = [];
  if (custom.length > 0) {
    parts.push(`User-provided custom agents (prefer one of these when it fits the task):\n${custom.map(line).join("\n")}`);
  }
  if (builtin.length > 0) parts.push(`Built-in agents:\n${builtin.map(line).join("\n")}`);
  return parts.join("\n\n");
}

/** "Unknown agent …" with the names that would work. */
export function unknownAgentMessage(name: string, valid: readonly AgentDefinition[]): string {
  const names = valid.map((agent) => agent.name);
  return `Unknown agent "${name}". ${names.length > 0 ? `Available agents: ${names.join(", ")}.` : "No agents are available."}`;
}

/** Load problems as session warnings: a bad file is named (with the field) and the others still work. */
export function reportAgentFileProblems(emit: Emit, problems: { errors: AgentFileProblem[]; warnings: AgentFileProblem[] }): void {
  for (const error of problems.errors) emit("session.warning", { warningType: "agent_file", message: `Agent file not loaded: ${describeAgentFileProblem(error)}` });
  for (const warning of problems.warnings) emit("session.warning", { warningType: "agent_file", message: `Agent file: ${describeAgentFileProblem(warning)}` });
}

/**
 * A resumed session runs as the agent it last selected (its file read again); when that agent is gone,
 * a warning says so and the session goes on as the default agent.
 */
export function restoreSelectedAgent(
  session: { dispatch(command: Extract<SessionCommand, { type: "select_agent" }>): string | undefined },
  events: readonly SessionEvent[],
  emit: Emit,
): void {
  const last = events.findLast((event) => event.type === "subagent.selected" || event.type === "subagent.deselected");
  if (last?.type !== "subagent.selected") return;
  const problem = session.dispatch({ type: "select_agent", name: last.data.agentName });
  if (problem) emit("session.warning", { warningType: "agent", message: `This session ran as the ${last.data.agentName} agent, which is no longer available. ${problem}` });
}
