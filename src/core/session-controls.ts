/**
 * What a person (or a client) switches for the whole session: its mode (a preset that contributes rules),
 * its model (and reasoning effort), the custom agent the main agent runs as, autopilot's objective, and allow-all. Each switch is a
 * command and ends in an event; the main agent reads the choices as they are now (its tools, its system
 * prompt, the notice of a mode switch on the next prompt).
 */
import { realpathSync } from "node:fs";
import type { AgentMode } from "../protocol/events/index.js";
import type { ChatProvider } from "../provider/types.js";
import { SelectedAgentMcp } from "./agent-mcp.js";
import { selectableAgent, unknownAgentMessage, type AgentDefinition } from "./agents/agent-catalog.js";
import { modePreset, type ModePreset } from "./modes.js";
import { switchModel, type CurrentModel } from "./model-switch.js";
import { SessionObjective } from "./orchestrate/objective.js";
import type { SessionServices, SessionStart } from "./session-services.js";

export class SessionControls {
  private currentPreset: ModePreset;
  private currentProvider: ChatProvider;
  private selected: AgentDefinition | undefined;
  /** The reasoning effort /model chose (the configured one until then). */
  private reasoningEffort: CurrentModel["reasoningEffort"];
  private notices: string[] = [];
  readonly goal: SessionObjective;
  /** The selected agent's own MCP servers (its `mcp-servers`). */
  readonly agentMcp: SelectedAgentMcp;

  constructor(
    private readonly services: SessionServices,
    start: SessionStart,
  ) {
    this.currentPreset = modePreset(start.mode);
    this.currentProvider = services.provider;
    this.goal = new SessionObjective(services.sink.emit, start.objective);
    this.agentMcp = new SelectedAgentMcp(services.agentMcp, services.sink.emit);
    this.applyModeRules();
  }

  get preset(): ModePreset {
    return this.currentPreset;
  }

  get provider(): ChatProvider {
    return this.currentProvider;
  }

  /** The custom agent the main session runs as (/agent, --agent). */
  get selectedAgent(): AgentDefinition | undefined {
    return this.selected;
  }

  /** What the next prompt's message says first (a mode switch's notice); said once. */
  takeNotices(): string[] {
    const notices = this.notices;
    this.notices = [];
    return notices;
  }

  setMode(mode: AgentMode): void {
    if (mode === this.currentPreset.mode) return;
    const previous = this.currentPreset.mode;
    this.currentPreset = modePreset(mode);
    this.applyModeRules();
    this.notices = [this.currentPreset.switchNotice({ sessionDir: this.services.dir })];
    this.services.sink.emit("session.mode_changed", { previousMode: previous, newMode: mode });
    this.goal.modeChanged(mode);
  }

  /** /model: another model, and optionally another reasoning effort (see model-switch.ts). */
  setModel(model: string, effort?: string, reconnect = false): void {
    const current = { provider: this.currentProvider, reasoningEffort: this.reasoningEffort };
    const next = switchModel(current, model, effort, this.services.createProvider, this.services.sink.emit, reconnect);
    if (next) ({ provider: this.currentProvider, reasoningEffort: this.reasoningEffort } = next);
  }

  /** Selects a custom agent to run the main agent as (null: none); why not, when it cannot be selected. */
  selectAgent(name: string | null): string | undefined {
    const { agents, sink } = this.services;
    if (name === null) {
      if (!this.selected) return undefined;
      this.selected = undefined;
      this.agentMcp.select(undefined);
      sink.emit("subagent.deselected", {});
      return undefined;
    }
    const agent = selectableAgent(agents.list(), name);
    if (!agent) return unknownAgentMessage(name, agents.userInvocable());
    this.selected = agent;
    this.agentMcp.select(agent);
    sink.emit("subagent.selected", { agentName: agent.name, agentDisplayName: agent.displayName, tools: agent.tools ? [...agent.tools] : null });
    this.services.skills.preload(agent, sink.emit, true); // issue 19: an agent's `skills:` start loaded
    return undefined;
  }

  setAllowAll(on: boolean, only?: "urls"): void {
    const { permissions } = this.services;
    const before = permissions.allowAll;
    const summaryBefore = JSON.stringify(permissions.summary);
    if (only === "urls") permissions.setAllowAllUrls(on);
    else permissions.setAllowAll(on);
    const after = permissions.allowAll;
    if (before === after && JSON.stringify(permissions.summary) === summaryBefore) return;
    this.services.sink.emit("session.permissions_changed", {
      previousMode: before ? "allow-all" : "manual",
      mode: after ? "allow-all" : "manual",
      summary: permissions.summary,
    });
  }

  resetAllowedTools(): void {
    this.services.permissions.resetAllowedTools();
    this.services.sink.emit("session.info", {
      infoType: "permissions",
      message: "This session's approvals are forgotten; approvals kept for this directory remain.",
    });
  }

  /** A mode is a ruleset: its rules join the permission decision while it is on. */
  private applyModeRules(): void {
    this.services.permissions.setModeRules(this.currentPreset.permissionRules?.({ sessionDir: realpathSync(this.services.dir) }));
  }
}
