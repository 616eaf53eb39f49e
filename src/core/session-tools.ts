/**
 * Which tools an agent of the session is offered: the built-in and MCP tools narrowed by a selected agent's
 * list and by --available-tools / --excluded-tools; the main agent also gets its mode's extras, ask_user in
 * the variant that fits, the task tools, and the skill tool over the skills it may load (issue 19).
 */
import type { AnyTool } from "../tools/define-tool.js";
import { askUserChoicesTool, askUserFormTool, askUserQuestionTool } from "../tools/ask-user.js";
import { agentAllowsTool, toolInList, type ToolIdentity } from "./agents/agent-catalog.js";
import { availableModes, modePreset, type ModePreset } from "./modes.js";
import type { SessionControls } from "./session-controls.js";
import type { SessionServices } from "./session-services.js";
import { ToolSet } from "./tool-set.js";

export class SessionTools {
  private readonly modeGated: Set<string>;

  constructor(
    /** The built-in tools (mode-only ones included) and the face's own, memory's, the MCP servers', the tool filter, who answers. */
    private readonly services: Pick<SessionServices, "tools" | "joinedTools" | "memory" | "mcp" | "toolFilter" | "interactions" | "skills" | "sink">,
    /** The mode and the selected agent now, and that agent's own servers (the main agent's only, never a subagent's). */
    private readonly controls: Pick<SessionControls, "preset" | "selectedAgent" | "agentMcp">,
    /** The main agent's task tools. */
    private readonly taskTools: () => readonly AnyTool[],
  ) {
    this.modeGated = new Set(availableModes().flatMap((mode) => modePreset(mode).extraTools));
  }

  /** The main agent's tools in the current mode. */
  forMainAgent(): ToolSet {
    const { preset } = this.controls;
    const modeTools = this.services.tools.filter((tool) => this.modeGated.has(tool.name) && preset.extraTools.includes(tool.name));
    const skill = this.services.skills.tool(this.services.sink.emit, this.controls.selectedAgent?.skills);
    const sessionTools = [this.askUser(preset), ...this.taskTools(), ...(skill ? [skill] : []), ...this.controls.agentMcp.tools()].filter((tool) =>
      this.allowedBySelectedAgent(tool),
    );
    // Tools only an agent's list can name (the rem-agent's) are no tools of the default agent.
    const asDefault = this.controls.selectedAgent === undefined;
    const listed = (tool: AnyTool) => tool.onlyWhenListed !== true || !asDefault;
    // defaultAgent.excludedTools: hidden from the default agent only; a selected custom agent still gets them.
    const hidden = asDefault ? this.services.toolFilter?.defaultAgentExcluded : undefined;
    const shown = (tool: AnyTool) => hidden === undefined || hidden.length === 0 || !toolInList(hidden, tool);
    return new ToolSet(this.filtered([...this.base(), ...modeTools, ...sessionTools]).filter((tool) => listed(tool) && shown(tool)));
  }

  /** The session's own tools without any mode's extras (what a subagent starts from). */
  base(): AnyTool[] {
    const tools = [
      ...this.services.tools,
      ...(this.services.joinedTools?.tools() ?? []),
      ...(this.services.memory?.tools() ?? []),
      ...(this.services.mcp?.tools() ?? []),
    ];
    return this.filtered(tools.filter((tool) => !this.modeGated.has(tool.name) && this.allowedBySelectedAgent(tool)));
  }

  /**
   * A subagent's tools: the session's own and its own (its nested task tool, its skill tool), all under
   * --available-tools / --excluded-tools.
   */
  forSubagent(ownTools: readonly AnyTool[]): ToolSet {
    return new ToolSet([...this.base(), ...this.filtered(ownTools)]);
  }

  /** ask_user is a form when a person can answer one; in autopilot or without a person, "decide yourself". */
  private askUser(preset: ModePreset): AnyTool {
    if (preset.mode === "autopilot") return askUserChoicesTool;
    const { interactions } = this.services;
    if (interactions.canAnswer("elicitation")) return askUserFormTool;
    return interactions.canAnswer("user_input") ? askUserQuestionTool : askUserChoicesTool;
  }

  /** A selected agent's list narrows the session's tools (the mode's own tools stay the mode's business). */
  private allowedBySelectedAgent(tool: AnyTool): boolean {
    const agent = this.controls.selectedAgent;
    return agent === undefined || agentAllowsTool(agent, tool);
  }

  /** Whether --available-tools / --excluded-tools offer a tool, read like an agent file's list (`server/tool`, `server/*`, `*`). */
  offers(tool: string | ToolIdentity): boolean {
    const { available, excluded } = this.services.toolFilter ?? {};
    return toolInList(available, tool) && !(excluded !== undefined && excluded.length > 0 && toolInList(excluded, tool));
  }

  private filtered(tools: readonly AnyTool[]): AnyTool[] {
    return tools.filter((tool) => this.offers(tool));
  }
}
