/** `/env`: everything loaded into this session and where it came from: instructions, agents, hooks, MCP servers, skills, plugins. */
import type { AgentSession } from "../agent-session.js";
import { describeSkillProblem } from "../../skills/skill-file.js";
import { skillLocation } from "../skills/session-skills.js";
import type { SlashCommand } from "./types.js";

function section(title: string, lines: readonly string[], none: string): string {
  return [`${title}:`, ...(lines.length > 0 ? lines.map((line) => `  ${line}`) : [`  ${none}`])].join("\n");
}

export function environmentReport(session: AgentSession): string {
  const instructions = session.workspace.instructionFiles.map((file) => `${file.path}${file.enabled ? "" : " (off for this session)"}`);
  const agents = session.agents
    .list()
    .map(
      (agent) =>
        `${agent.name} (${agent.pluginName ? `plugin ${agent.pluginName}` : agent.source}${agent.source === "builtin" ? "" : `: ${agent.file}`})${agent.name === session.agentName ? " · selected" : ""}`,
    );
  const hookCounts = new Map<string, number>();
  for (const hook of session.hooks?.definitions ?? []) {
    const key = `${hook.source.file} (${hook.source.kind})`;
    hookCounts.set(key, (hookCounts.get(key) ?? 0) + 1);
  }
  const hooks = [...hookCounts].map(([file, count]) => `${file}: ${count} hook${count === 1 ? "" : "s"}`);
  const servers = (session.mcp?.list() ?? []).map((server) => `${server.name} (${server.transport}, ${server.state}) from ${server.source}`);
  const skills = session.skills.states().map((skill) => `${skill.name} (${skillLocation(skill)}: ${skill.file})${skill.enabled ? "" : " · disabled"}`);
  const { errors, warnings } = session.skills.catalog.problems();
  const skillProblems = [...errors, ...warnings].map((problem) => `not loaded or with a problem: ${describeSkillProblem(problem)}`);
  const plugins = session.skills.plugins.map((plugin) => `${plugin.name}${plugin.version ? ` ${plugin.version}` : ""} (${plugin.origin}: ${plugin.root})`);
  return [
    `Working directory: ${session.cwd}`,
    section("Instructions", instructions, "none (/init writes .github/copilot-instructions.md)"),
    section("Agents", agents, "none"),
    section("Hooks", hooks, "none"),
    section("MCP servers", servers, "none"),
    section("Skills", [...skills, ...skillProblems], "none"),
    section("Plugins", plugins, "none"),
  ].join("\n");
}

export const envCommand: SlashCommand = {
  name: "env",
  description: "Show the instructions, agents, hooks, MCP servers, skills and plugins loaded, and from where",
  run: ({ session }) => ({ kind: "message", text: environmentReport(session) }),
};
