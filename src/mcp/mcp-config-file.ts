/**
 * Edits $AGENT_HOME/mcp-config.json for `agent mcp add|remove|enable|disable` and an SDK client's
 * mcp.config.*, keeping every other key and server as it was (a file a Copilot user brought stays theirs).
 */
import { readFileSync } from "node:fs";
import { makePrivateDir, replacePrivateFile } from "../util/private-files.js";
import path from "node:path";
import { parseConfigDocument, userConfigPath, type ServerConfig } from "./mcp-config.js";

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

const missing = (agentHome: string, name: string) => new McpConfigFileError(`There is no MCP server named ${name} in ${userConfigPath(agentHome)}.`);

/** Why `config` cannot be a server's entry (not an object, no command or url, a field of the wrong type), if anything. */
export function serverConfigProblem(name: string, config: unknown): string | undefined {
  return parseConfigDocument(JSON.stringify({ mcpServers: { [name]: config } }), `MCP server ${name}`).problems[0];
}

/** Adds a server; one of that name already there is an error (replacing it silently would lose its command, environment and headers). */
export function addServer(agentHome: string, name: string, config: ServerConfig): void {
  updateConfigFile(agentHome, (servers) => {
    if (servers[name])
      throw new McpConfigFileError(`An MCP server named ${name} is already in ${userConfigPath(agentHome)}; remove it first (agent mcp remove ${name}).`);
    servers[name] = config;
  });
}

/** Replaces a server's whole entry. */
export function replaceServer(agentHome: string, name: string, config: ServerConfig): void {
  updateConfigFile(agentHome, (servers) => {
    if (!servers[name]) throw missing(agentHome, name);
    servers[name] = config;
  });
}

export function removeServer(agentHome: string, name: string): void {
  updateConfigFile(agentHome, (servers) => {
    if (!servers[name]) throw missing(agentHome, name);
    delete servers[name];
  });
}

/** Keeps servers from starting in new sessions (`disabled: true`, the entry kept), or lets them start again. */
export function setServersDisabled(agentHome: string, names: readonly string[], disabled: boolean): void {
  updateConfigFile(agentHome, (servers) => {
    for (const name of names) {
      const entry = servers[name];
      if (!entry) throw missing(agentHome, name);
      if (disabled) entry.disabled = true;
      else delete entry.disabled;
    }
  });
}
