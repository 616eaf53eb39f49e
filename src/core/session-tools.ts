/**
 * Which tools an agent of the session is offered: the built-in and MCP tools narrowed by a selected agent's
 * list and by --available-tools / --excluded-tools; the main agent also gets its mode's extras, ask_user in
 * the variant that fits, and the task tools.
 */
import type { AnyTool } from "../tools/define-tool.js";
import { askUserChoicesTool, askUserFormTool, askUserQuestionTool } from "../tools/ask-user.js";
import { agentAllowsTool, toolInList, type AgentDefinition } from "./agents/agent-catalog.js";
import { availableModes, modePreset, type ModePreset } from "./modes.js";
import { ToolSet } from "./tool-set.js";

export interface SessionToolsDeps {
  /** The built-in tools (mode-only ones included) and the session's own. */
  tools: readonly AnyTool[];
  /** MCP servers' tools, as they are now. */
  mcpTools(): readonly AnyTool[];
  /** The selected agent's own MCP servers' tools (its `mcp-servers`): the main agent's only, never a subagent's. */
  agentMcpTools?(): readonly AnyTool[];
  /** `defaultAgentExcluded`: what the main agent is not offered while no custom agent is selected. */
  toolFilter?: { available?: readonly string[]; excluded?: readonly string[]; defaultAgentExcluded?: readonly string[] | undefined };
  preset(): ModePreset;
  selectedAgent(): AgentDefinition | undefined;
  /** The main agent's task tools. */
  taskTools(): readonly AnyTool[];
  /** The memory tools while memory is on (src/memory); none otherwise. */
  memoryTools?(): readonly AnyTool[];
  /** Whether a person (or client) can fill in a form. */
  canAnswerForms(): boolean;
  /** Someone answers plain questions (a client's user-input handler) though not forms. */
  canAnswerQuestions?(): boolean;
}

export class SessionTools {
  private readonly modeGated: Set<string>;

  constructor(private readonly deps: SessionToolsDeps) {
    this.modeGated = new Set(availableModes().flatMap((mode) => modePreset(mode).extraTools));
  }

  /** The main agent's tools in the current mode. */
  forMainAgent(): ToolSet {
    const preset = this.deps.preset();
    const modeTools = this.deps.tools.filter((tool) => this.modeGated.has(tool.name) && preset.extraTools.includes(tool.name));
    const sessionTools = [this.askUser(preset), ...this.deps.taskTools(), ...(this.deps.agentMcpTools?.() ?? [])].filter((tool) =>
      this.allowedBySelectedAgent(tool),
    );
    // Tools only an agent's list can name (the rem-agent's) are no tools of the default agent.
    const asDefault = this.deps.selectedAgent() === undefined;
    const listed = (tool: AnyTool) => tool.onlyWhenListed !== true || !asDefault;
    const hidden = asDefault ? this.deps.toolFilter?.defaultAgentExcluded : undefined;
    const shown = (tool: AnyTool) => hidden === undefined || hidden.length === 0 || !toolInList(hidden, tool);
    return new ToolSet(this.filtered([...this.base(), ...modeTools, ...sessionTools]).filter((tool) => listed(tool) && shown(tool)));
  }

  /** The session's own tools without any mode's extras (what a subagent starts from). */
  base(): AnyTool[] {
    const tools = [...this.deps.tools, ...(this.deps.memoryTools?.() ?? []), ...this.deps.mcpTools()];
    return this.filtered(tools.filter((tool) => !this.modeGated.has(tool.name) && this.allowedBySelectedAgent(tool)));
  }

  /** A subagent's tools: the session's own and its nested task tool, both under --available-tools / --excluded-tools. */
  forSubagent(taskTools: readonly AnyTool[]): ToolSet {
    return new ToolSet([...this.base(), ...this.filtered(taskTools)]);
  }

  /** ask_user is a form when a person can answer one; in autopilot or without a person, "decide yourself". */
  private askUser(preset: ModePreset): AnyTool {
    if (preset.mode === "autopilot") return askUserChoicesTool;
    if (this.deps.canAnswerForms()) return askUserFormTool();
    return this.deps.canAnswerQuestions?.() ? askUserQuestionTool : askUserChoicesTool;
  }

  /** A selected agent's list narrows the session's tools (the mode's own tools stay the mode's business). */
  private allowedBySelectedAgent(tool: AnyTool): boolean {
    const agent = this.deps.selectedAgent();
    return agent === undefined || agentAllowsTool(agent, tool);
  }

  /** --available-tools / --excluded-tools, read like an agent file's list (`server/tool`, `server/*`, `*`). */
  private filtered(tools: readonly AnyTool[]): AnyTool[] {
    const { available, excluded } = this.deps.toolFilter ?? {};
    return tools.filter((tool) => toolInList(available, tool) && !(excluded !== undefined && excluded.length > 0 && toolInList(excluded, tool)));
  }
}
