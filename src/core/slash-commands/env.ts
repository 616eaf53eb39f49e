/** `/env`: everything loaded into this session and where it came from: instructions, agents, hooks, MCP servers, skills. */
import type { AgentSession } from "../agent-session.js";
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
        `${agent.name} (${agent.source}${agent.source === "builtin" ? "" : `: ${agent.file}`})${agent.name === session.agentName ? " · selected" : ""}`,
    );
  const hookCounts = new Map<string, number>();
  for (const hook of session.hooks?.definitions ?? []) {
    const key = `${hook.source.file} (${hook.source.kind})`;
    hookCounts.set(key, (hookCounts.get(key) ?? 0) + 1);
  }
  const hooks = [...hookCounts].map(([file, count]) => `${file}: ${count} hook${count === 1 ? "" : "s"}`);
  const servers = (session.mcp?.list() ?? []).map((server) => `${server.name} (${server.transport}, ${server.state}) from ${server.source}`);
  return [
    `Working directory: ${session.cwd}`,
    section("Instructions", instructions, "none (/init writes .github/copilot-instructions.md)"),
    section("Agents", agents, "none"),
    section("Hooks", hooks, "none"),
    section("MCP servers", servers, "none"),
    section("Skills", [], "none (this agent does not load skills)"),
  ].join("\n");
}

export const envCommand: SlashCommand = {
  name: "env",
  description: "Show the instructions, agents, hooks, MCP servers and skills loaded, and from where",
  run: ({ session }) => ({ kind: "message", text: environmentReport(session) }),
};
