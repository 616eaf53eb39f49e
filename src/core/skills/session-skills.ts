/**
 * A session's skills: the catalog (frontmatter read on first use), what each agent is shown
 * (`<available_skills>` and its own `skill` tool), loading one (the model's tool, the user's `/<name>`, an
 * agent's `skills:` list) as a persisted skill.invoked event, and the permission rules of the skills loaded
 * so far (their `allowed-tools`), added to the decision while they stay enabled, as a mode adds its ruleset.
 * A skill's rules apply only when it comes from the user's own places, a plugin the user installed, or a
 * trusted folder: a repository that is not trusted cannot approve tools for itself.
 * (Over 300 lines: loading, the rules a load adds and the skill commands share the loaded list and its
 * rules, and each of them is a few short methods; the pure parts are in skill-rules.ts and skill-text.ts.)
 */
import { isFolderTrusted, type TrustSources } from "../../config/folder-trust.js";
import { setSkillDisabled } from "../../config/settings-update.js";
import type { Rule } from "../../permissions/rules.js";
import type { SessionEvent } from "../../protocol/events/index.js";
import type { LoadedPlugin } from "../../plugins/load-plugins.js";
import type { LoadedSkills } from "../../skills/load-skills.js";
import { SkillCache, skillCacheFile } from "../../skills/skill-cache.js";
import { SkillCatalog, type SkillState } from "../../skills/skill-catalog.js";
import { describeSkillProblem, readSkillBody, type SkillDefinition } from "../../skills/skill-file.js";
import type { SkillFolder } from "../../skills/skill-sources.js";
import type { AnyTool } from "../../tools/define-tool.js";
import { createSkillTool } from "../../tools/skill.js";
import type { CommandResult, Delivery, RunResult, SessionCommand, SkillInfo, SkillsListing } from "../../protocol/commands.js";
import type { PromptInput } from "../runtime/prompt-queue.js";
import type { Emit } from "../event-sink.js";
import { allowedToolRules } from "./skill-rules.js";
import { availableSkillsBlock, type PromptSkill } from "./skill-text.js";

export type SkillTrigger = "agent-invoked" | "user-invoked" | "context-load";

const SKILL_COMMANDS = ["list_skills", "set_skill_enabled", "reload_skills", "invoke_skill"] as const;
/** The commands SessionSkills answers for the session. */
export type SkillCommand = Extract<SessionCommand, { type: (typeof SKILL_COMMANDS)[number] }>;

export function isSkillCommand(command: SessionCommand): command is SkillCommand {
  return (SKILL_COMMANDS as readonly string[]).includes(command.type);
}

export interface SessionSkillsOptions {
  /** The folders to read, in precedence order (asked again at each reload). */
  folders(): readonly SkillFolder[];
  /** Disabled at the start: settings' and a client's `disabledSkills`. */
  disabled?: readonly string[];
  /** The session's emit, for load reports. */
  emit: Emit;
  /** Where folder trust is read from, for a repository skill's allowed-tools. */
  trust?: TrustSources;
  /** Where /skills enable|disable keep the choice (settings.json's disabledSkills) and the frontmatter cache is. */
  agentHome?: string;
  /** The rules of the active skills, replacing the previous set. */
  setRules(rules: readonly Rule[]): void;
  /** Said with the first load report (plugins that could not be read). */
  problems?: readonly string[];
  /** The plugins whose skills the session reads (as at the last load), for /plugin and a client's list. */
  plugins?(): readonly LoadedPlugin[];
}

/** A skill as loaded in this session (the SDK's session.skills.getInvoked). */
export interface InvokedSkill {
  name: string;
  path: string;
  content: string;
  allowedTools?: string[];
  trigger?: SkillTrigger;
  /** The subagent whose conversation it joined; the main agent's when absent. */
  agentId?: string;
}

/** Where a skill comes from, as the model and the lists name it. */
export const skillLocation = (skill: Pick<SkillDefinition, "source" | "pluginName">): string =>
  skill.pluginName ? `plugin:${skill.pluginName}` : skill.source;

export class SessionSkills {
  readonly catalog: SkillCatalog;
  /** Skills loaded in the session and the rules each added (empty when it may not approve tools). */
  private readonly active = new Map<string, Rule[]>();
  private readonly loadedList: InvokedSkill[] = [];
  /** Skills whose allowed-tools were already explained (refused or partly unreadable): said once. */
  private readonly explained = new Set<string>();
  private readonly listeners: (() => void)[] = [];
  private problemsToSay: readonly string[];

  constructor(private readonly options: SessionSkillsOptions) {
    this.problemsToSay = options.problems ?? [];
    this.catalog = new SkillCatalog({
      folders: options.folders,
      ...(options.disabled ? { disabled: options.disabled } : {}),
      ...(options.agentHome ? { cache: new SkillCache(skillCacheFile(options.agentHome)) } : {}),
      onLoad: (loaded) => this.report(loaded),
    });
  }

  /** The plugins the session runs with. */
  get plugins(): readonly LoadedPlugin[] {
    return this.options.plugins?.() ?? [];
  }

  /** Where the user's choices are kept ($AGENT_HOME), when the session has one. */
  get agentHome(): string | undefined {
    return this.options.agentHome;
  }

  /** A session without skills (a test's, or one whose face gives none). */
  static none(emit: Emit): SessionSkills {
    return new SessionSkills({ folders: () => [], emit, setRules: () => undefined });
  }

  /** Called when what the model is shown changed (enable, disable, reload): the session sends its system prompt again. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  private report({ errors, warnings }: LoadedSkills): void {
    const { emit } = this.options;
    for (const problem of this.problemsToSay) emit("session.warning", { warningType: "plugin", message: problem });
    this.problemsToSay = [];
    for (const error of errors) emit("session.warning", { warningType: "skill_file", message: `Skill not loaded: ${describeSkillProblem(error)}` });
    for (const warning of warnings) emit("session.warning", { warningType: "skill_file", message: `Skill: ${describeSkillProblem(warning)}` });
    this.announce();
  }

  /** Whether a client was told the list (a session with no skills says nothing until it has some). */
  private announced = false;

  private announce(): void {
    const skills = this.infos();
    if (skills.length === 0 && !this.announced) return;
    this.announced = true;
    this.options.emit("session.skills_loaded", { skills });
  }

  /** What the model is shown: the enabled skills it may load (an agent's own list when it names one). */
  promptList(names?: readonly string[]): PromptSkill[] {
    return this.catalog.forModel(names).map((skill) => ({ name: skill.name, description: skill.description, location: skillLocation(skill) }));
  }

  /** The system prompt's guidance and list; empty when there is nothing to load. */
  promptBlock(names?: readonly string[]): string {
    return availableSkillsBlock(this.promptList(names));
  }

  /** An agent's `skill` tool (emitting as that agent), or none when it has no skill to load. */
  tool(emit: Emit, names?: readonly string[]): AnyTool | undefined {
    if (this.catalog.forModel(names).length === 0) return undefined;
    return createSkillTool({ load: (name) => this.load(name, "agent-invoked", emit, names) });
  }

  /** The skill commands of the one way in (AgentSession.dispatch); `send` queues a prompt as the session does. */
  handle(command: SkillCommand, send: (input: PromptInput, delivery?: Delivery) => Promise<RunResult>): CommandResult<SkillCommand> {
    switch (command.type) {
      case "list_skills":
        return this.listing();
      case "set_skill_enabled":
        return this.setEnabled(command.name, command.enabled, command.persist);
      case "reload_skills":
        return this.reload();
      case "invoke_skill": {
        const found = this.forCommand(command.name);
        if (!found) return Promise.reject(new Error(`There is no skill named ${command.name}.`));
        if ("problem" in found) return Promise.reject(new Error(found.problem));
        const { name } = found.skill;
        // Shown (and given back to edit) as typed: a command's prompt, like /review's.
        return send({ prompt: command.prompt, source: `command:${name}`, typed: command.prompt, skill: name }, command.delivery);
      }
    }
  }

  /** A `/<skill>` prompt's turn has come: its skill joins the conversation just before the line typed. */
  beforePrompt(input: PromptInput, emit: Emit): void {
    const problem = input.skill ? this.load(input.skill, "user-invoked", emit) : undefined;
    if (problem) emit("session.warning", { warningType: "skill", message: problem });
  }

  /** Every skill as a client sees it (list_skills, session.skills_loaded). */
  private infos(): SkillInfo[] {
    return this.catalog.states().map((skill) => ({
      name: skill.name,
      description: skill.description,
      source: skill.source,
      enabled: skill.enabled,
      userInvocable: skill.userInvocable,
      modelInvocable: skill.modelInvocable,
      path: skill.file,
      ...(skill.argumentHint ? { argumentHint: skill.argumentHint } : {}),
      ...(skill.pluginName ? { pluginName: skill.pluginName } : {}),
      ...(skill.allowedTools ? { allowedTools: skill.allowedTools } : {}),
    }));
  }

  private listing(): SkillsListing {
    const { errors, warnings } = this.catalog.problems();
    return {
      skills: this.infos(),
      invoked: [...this.loadedList],
      problems: { errors: errors.map(describeSkillProblem), warnings: warnings.map(describeSkillProblem) },
      plugins: this.plugins.map(({ name, version, description, origin, root }) => ({
        name,
        ...(version ? { version } : {}),
        ...(description ? { description } : {}),
        origin,
        root,
      })),
    };
  }

  /** The skill `/<name>` (or `/<plugin>:<name>`) runs; a reason when it exists but cannot; undefined when there is none. */
  forCommand(command: string): { skill: SkillDefinition } | { problem: string } | undefined {
    const [plugin, name] = command.includes(":") ? (command.split(":", 2) as [string, string]) : [undefined, command];
    const skill = this.catalog.all().find((candidate) => candidate.name === name && (plugin === undefined || candidate.pluginName === plugin));
    if (!skill) return undefined;
    if (!this.catalog.isEnabled(skill.name)) return { problem: `The skill ${skill.name} is disabled; /skills enable ${skill.name} turns it on.` };
    if (!skill.userInvocable)
      return { problem: `The skill ${skill.name} is not for invoking by hand (user-invocable: false in ${skill.file}); the model loads it when it fits.` };
    return { skill };
  }

  /**
   * Loads a skill into the conversation of the agent `emit` speaks for: skill.invoked, whose fold adds the
   * `<skill-context>` message. Returns why not, when it cannot.
   */
  load(name: string, trigger: SkillTrigger, emit: Emit, names?: readonly string[]): string | undefined {
    const skill = this.catalog.get(name);
    const visible =
      trigger === "user-invoked"
        ? this.catalog.forUser()
        : trigger === "context-load"
          ? this.catalog.all().filter((candidate) => this.catalog.isEnabled(candidate.name) && (names ?? []).includes(candidate.name))
          : this.catalog.forModel(names);
    if (!skill || !visible.includes(skill)) {
      const available = visible.map((candidate) => candidate.name);
      return `Skill "${name}" is not available. ${available.length > 0 ? `Available skills: ${available.join(", ")}.` : "No skills are available."}`;
    }
    let content: string;
    try {
      content = readSkillBody(skill.file);
    } catch (error) {
      return `Skill "${name}" could not be read: ${(error as Error).message}`;
    }
    const granted = this.activate(skill);
    const event = emit("skill.invoked", {
      name: skill.name,
      path: skill.file,
      content,
      ...(granted.length > 0 ? { allowedTools: granted } : {}),
      ...(skill.pluginName ? { pluginName: skill.pluginName } : {}),
      ...(skill.pluginVersion ? { pluginVersion: skill.pluginVersion } : {}),
      description: skill.description,
      source: skill.source,
      trigger,
    });
    this.loadedList.push({
      name: skill.name,
      path: skill.file,
      content,
      ...(granted.length > 0 ? { allowedTools: granted } : {}),
      trigger,
      ...(event.agentId ? { agentId: event.agentId } : {}),
    });
    return undefined;
  }

  /**
   * An agent that names its skills (`skills:`, Copilot's and Claude Code's) starts with them loaded, into the
   * conversation `emit` speaks for. The main session's agent loads them once: selecting it again (a resume does)
   * does not repeat them.
   */
  preload(agent: { name: string; skills?: readonly string[] }, emit: Emit, main = false): void {
    for (const name of agent.skills ?? []) {
      if (main && this.loadedList.some((loaded) => loaded.name === name && loaded.trigger === "context-load" && loaded.agentId === undefined)) continue;
      const problem = this.load(name, "context-load", emit, agent.skills);
      if (problem) emit("session.warning", { warningType: "skill", message: `The ${agent.name} agent names the skill ${name}: ${problem}` });
    }
  }

  /** Whether a skill's allowed-tools may approve anything: not a repository's that folder trust does not cover. */
  private mayApprove(skill: SkillDefinition): boolean {
    if (skill.source !== "project") return true;
    return this.options.trust !== undefined && skill.trustFolder !== undefined && isFolderTrusted(this.options.trust, skill.trustFolder);
  }

  /** Adds the skill's rules (when it may approve tools); the entries granted. */
  private activate(skill: SkillDefinition): string[] {
    const entries = skill.allowedTools ?? [];
    if (entries.length === 0) return [];
    const say = (message: string) => {
      if (this.explained.has(skill.name)) return;
      this.explained.add(skill.name);
      this.options.emit("session.warning", { warningType: "skill", message });
    };
    if (!this.mayApprove(skill)) {
      say(
        `The skill ${skill.name} asks to approve tools (allowed-tools: ${entries.join(", ")}), but ${skill.trustFolder ?? "its folder"} is not a trusted folder: its tool calls ask as usual.`,
      );
      return [];
    }
    const { rules, skipped } = allowedToolRules(entries, skill.name);
    if (skipped.length > 0) say(`The skill ${skill.name}: allowed-tools entries skipped: ${skipped.join("; ")}`);
    this.active.set(skill.name, rules);
    this.applyRules();
    return rules.map((rule) => rule.text);
  }

  private applyRules(): void {
    this.options.setRules([...this.active].filter(([name]) => this.catalog.isEnabled(name)).flatMap(([, rules]) => rules));
  }

  /** Every skill found, with whether it is enabled. */
  states(): SkillState[] {
    return this.catalog.states();
  }

  /** Skills loaded so far in this session, oldest first. */
  invoked(): readonly InvokedSkill[] {
    return this.loadedList;
  }

  /** Enables or disables a skill; with `persist`, settings.json's disabledSkills keeps the choice. Why not, when it cannot. */
  setEnabled(name: string, enabled: boolean, persist = false): string | undefined {
    if (!this.catalog.setEnabled(name, enabled)) return `There is no skill named ${name}.`;
    let problem: string | undefined;
    try {
      if (persist && this.options.agentHome) setSkillDisabled(this.options.agentHome, name, !enabled);
    } catch (error) {
      problem = `The skill ${name} is ${enabled ? "enabled" : "disabled"} for this session, but not kept: ${(error as Error).message}`;
    }
    this.applyRules();
    this.changed();
    this.announce();
    return problem;
  }

  /** Reads the skill folders again; what did not load, as lines. */
  reload(): { errors: string[]; warnings: string[] } {
    const { errors, warnings } = this.catalog.reload();
    this.applyRules();
    this.changed();
    return { errors: errors.map(describeSkillProblem), warnings: warnings.map(describeSkillProblem) };
  }

  /** A resumed session: the skills its log loaded are active again (their rules as the skills and trust say now). */
  restore(events: readonly SessionEvent[]): void {
    for (const event of events) {
      if (event.type !== "skill.invoked") continue;
      const { name, path, content, allowedTools, trigger } = event.data;
      this.loadedList.push({
        name,
        path,
        content,
        ...(allowedTools ? { allowedTools } : {}),
        ...(trigger ? { trigger } : {}),
        ...(event.agentId ? { agentId: event.agentId } : {}),
      });
      const skill = allowedTools ? this.catalog.get(name) : undefined;
      if (skill && skill.file === path) this.activate(skill);
    }
  }
}
