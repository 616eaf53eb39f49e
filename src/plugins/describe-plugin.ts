/**
 * A plugin in words: what it brings, and the programs it will run (its hooks' commands and its MCP servers),
 * shown when it is installed or enabled, since that is when the user decides they may run.
 */
import { existsSync } from "node:fs";
import { skillFilesIn } from "../skills/skill-sources.js";
import type { PluginDocument, PluginParts } from "./plugin-manifest.js";

function parse(document: PluginDocument): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(document.text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `event: command` for each command hook of the plugin's hook documents (Copilot's `bash`, Claude's `command`). */
export function hookCommands(parts: PluginParts): string[] {
  const lines: string[] = [];
  const visit = (event: string, value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) visit(event, item);
    else if (value && typeof value === "object") {
      const entry = value as Record<string, unknown>;
      const command = typeof entry.bash === "string" ? entry.bash : typeof entry.command === "string" ? entry.command : undefined;
      if (command) lines.push(`${event}: ${command}`);
      if (Array.isArray(entry.hooks)) visit(event, entry.hooks);
    }
  };
  for (const document of parts.hooks) {
    const hooks = parse(document)?.hooks;
    if (hooks && typeof hooks === "object") for (const [event, entries] of Object.entries(hooks)) visit(event, entries);
  }
  return lines;
}

/** `name: command args` or `name: url` for each MCP server of the plugin. */
export function mcpServerLines(parts: PluginParts): string[] {
  const lines: string[] = [];
  for (const document of parts.mcp) {
    const parsed = parse(document);
    const servers = { ...(parsed?.servers as object | undefined), ...(parsed?.mcpServers as object | undefined) } as Record<string, Record<string, unknown>>;
    for (const [name, config] of Object.entries(servers)) {
      const command = [config?.command, ...(Array.isArray(config?.args) ? config.args : [])].filter((part) => typeof part === "string").join(" ");
      lines.push(`${name}: ${typeof config?.url === "string" ? config.url : command}`);
    }
  }
  return lines;
}

export function countSkillFiles(parts: PluginParts): number {
  return parts.skillDirs.reduce((sum, dir) => sum + skillFilesIn(dir).filter((file) => existsSync(file)).length, 0);
}

/** "2 skills, 1 agent folder, 3 hooks, 1 MCP server". */
export function partsSummary(parts: PluginParts): string {
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const items = [
    count(countSkillFiles(parts), "skill"),
    ...(parts.agentDirs.length > 0 ? [count(parts.agentDirs.length, "agent folder")] : []),
    count(hookCommands(parts).length, "hook"),
    count(mcpServerLines(parts).length, "MCP server"),
  ];
  return items.join(", ");
}

/** The programs the plugin runs once enabled, one per line; empty when it runs none. */
export function programsItRuns(parts: PluginParts): string[] {
  return [...hookCommands(parts).map((line) => `hook ${line}`), ...mcpServerLines(parts).map((line) => `MCP server ${line}`)];
}
