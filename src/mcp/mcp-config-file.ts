/**
 * Edits $AGENT_HOME/mcp-config.json for `agent mcp add|remove|enable|disable`, keeping every other key and
 * server as it was (a file a Copilot user brought stays theirs).
 */
import { readFileSync } from "node:fs";
import { makePrivateDir, replacePrivateFile } from "../util/private-files.js";
import path from "node:path";
import { userConfigPath, type ServerConfig } from "./mcp-config.js";

type ConfigDocument = Record<string, unknown> & { mcpServers: Record<string, ServerConfig> };

export class McpConfigFileError extends Error {}

export function readConfigFile(agentHome: string): ConfigDocument {
  const file = userConfigPath(agentHome);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { mcpServers: {} };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new McpConfigFileError(`${file} is not valid JSON (${(error as Error).message}); fix it first.`);
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) throw new McpConfigFileError(`${file}: expected {"mcpServers": {...}}`);
  const record = document as Record<string, unknown>;
  const servers = record.mcpServers;
  return { ...record, mcpServers: typeof servers === "object" && servers !== null && !Array.isArray(servers) ? (servers as Record<string, ServerConfig>) : {} };
}

export function writeConfigFile(agentHome: string, document: ConfigDocument): void {
  const file = userConfigPath(agentHome);
  makePrivateDir(path.dirname(file));
  // Written whole then renamed, so a session reading it never sees half a file; private, as it may hold tokens.
  replacePrivateFile(file, `${JSON.stringify(document, null, 2)}\n`);
}

export function updateConfigFile(agentHome: string, change: (servers: Record<string, ServerConfig>) => void): void {
  const document = readConfigFile(agentHome);
  change(document.mcpServers);
  writeConfigFile(agentHome, document);
}
