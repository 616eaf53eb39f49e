/**
 * `/skills [list|info <name>|enable <name>|disable <name>|reload]` (alias `/skill`): the session's skills,
 * where each comes from, which are on, and why a file did not load. enable and disable apply at once and are
 * kept in settings.json's `disabledSkills`; reload reads the skill folders again.
 */
import type { AgentSession } from "../agent-session.js";
import { describeSkillProblem } from "../../skills/skill-file.js";
import { skillLocation } from "../skills/session-skills.js";
import type { SlashCommand, SlashCommandResult } from "./types.js";

const WHERE =
  "Skills are folders with a SKILL.md, read from $AGENT_HOME/skills (and Copilot's home's skills/, ~/.claude/skills, ~/.agents/skills), the project's .github/skills, .claude/skills and .agents/skills, installed plugins, and settings.json's skillDirectories.";

function listing(session: AgentSession): SlashCommandResult {
  const skills = session.skills.states();
  const { errors, warnings } = session.skills.catalog.problems();
  const line = (skill: (typeof skills)[number]) =>
    `  ${skill.enabled ? "●" : "○"} ${skill.name} (${skillLocation(skill)}${skill.enabled ? "" : ", disabled"}${skill.userInvocable ? "" : ", model only"}${skill.modelInvocable ? "" : ", by hand only"}): ${skill.description.replace(/\s+/g, " ")}`;
  const sections = [
    skills.length > 0
      ? `Skills (${skills.filter((skill) => skill.enabled).length} of ${skills.length} enabled):\n${skills.map(line).join("\n")}`
      : `No skills. ${WHERE}`,
    errors.length + warnings.length > 0
      ? `Not loaded, or loaded with a problem:\n${[...errors, ...warnings].map((problem) => `  ${describeSkillProblem(problem)}`).join("\n")}`
      : undefined,
    skills.length > 0 ? "/<name> [arguments] runs a skill; /skills info <name> shows one." : undefined,
  ];
  return {
    kind: "message",
    text: sections.filter((section) => section !== undefined).join("\n\n"),
    ...(errors.length > 0 ? { level: "warning" as const } : {}),
  };
}

function info(session: AgentSession, name: string): SlashCommandResult {
  const skill = session.skills.states().find((candidate) => candidate.name === name);
  if (!skill) return { kind: "message", level: "error", text: `There is no skill named ${name}. /skills lists them.` };
  const loaded = session.skills.invoked().some((invoked) => invoked.name === name);
  const lines = [
    `${skill.name} (${skillLocation(skill)}${skill.enabled ? "" : ", disabled"})`,
    `  ${skill.description.replace(/\s+/g, " ")}`,
    `  file: ${skill.file}`,
    `  invoke: ${skill.userInvocable ? `/${skill.name}${skill.argumentHint ? ` ${skill.argumentHint}` : ""}` : "not by hand (user-invocable: false)"}`,
    `  the model: ${skill.modelInvocable ? "sees it and may load it" : "does not see it (disable-model-invocation: true)"}`,
    ...(skill.allowedTools
      ? [`  allowed-tools: ${skill.allowedTools.join(", ")}${skill.source === "project" ? " (approved only where the project's folder is trusted)" : ""}`]
      : []),
    ...(skill.license ? [`  license: ${skill.license}`] : []),
    `  loaded in this session: ${loaded ? "yes" : "no"}`,
  ];
  return { kind: "message", text: lines.join("\n") };
}

export const skillsCommand: SlashCommand = {
  name: "skills",
  aliases: ["skill"],
  description: "List the skills, show one, enable or disable one, or read them again",
  argsHint: "[list|info|enable|disable|reload] [name]",
  run: ({ session, args }): SlashCommandResult => {
    const [verb = "list", name] = args.split(/\s+/).filter(Boolean);
    switch (verb) {
      case "list":
        return listing(session);
      case "info":
      case "show":
        return name ? info(session, name) : { kind: "message", level: "error", text: "Usage: /skills info <name>" };
      case "enable":
      case "disable": {
        if (!name) return { kind: "message", level: "error", text: `Usage: /skills ${verb} <name>` };
        const problem = session.dispatch({ type: "set_skill_enabled", name, enabled: verb === "enable", persist: true });
        if (problem) return { kind: "message", level: "error", text: problem };
        return { kind: "message", text: `Skill ${name} ${verb}d (kept in settings.json's disabledSkills).` };
      }
      case "reload": {
        const { errors, warnings } = session.dispatch({ type: "reload_skills" });
        const count = session.skills.states().length;
        return {
          kind: "message",
          text: `Skills read again: ${count} found${errors.length + warnings.length > 0 ? `, ${errors.length + warnings.length} with a problem (above)` : ""}.`,
          ...(errors.length > 0 ? { level: "warning" as const } : {}),
        };
      }
      default:
        return { kind: "message", level: "error", text: `Unknown /skills subcommand "${verb}". Use list, info, enable, disable or reload.` };
    }
  },
};
