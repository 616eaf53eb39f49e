/**
 * MCP server configuration in Copilot CLI's format (`{"mcpServers": {NAME: {...}}}`), also VS Code's
 * `{"servers": {...}}`, gathered from every source of a session: the enabled plugins', Copilot's home's and then our home's
 * mcp-config.json, the repository's .mcp.json / .github/mcp.json / .vscode/mcp.json (only where folder trust
 * lets them run) and --additional-mcp-config (JSON or @file). Later sources replace earlier servers of the same name.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { userFolders } from "../config/agent-home.js";
import { howToTrust, mayRun, type TrustSources } from "../config/folder-trust.js";
import { parseJsonWithComments } from "../util/json-with-comments.js";
import { plainObject, type PlainShape } from "../util/plain-object.js";
import { repositoryConfigFiles } from "./repository-files.js";

// Built at the first configuration read (z.lazy): most runs have no MCP file, and the schema costs start-up.
export const serverConfigSchema = z.lazy(() =>
  z.looseObject({
    type: z.enum(["local", "stdio", "http", "sse"]).optional(),
    command: z.string().optional(),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
    /** The SDK's name for `cwd`. */
    workingDirectory: z.string().optional(),
    url: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** `["*"]` (or absent): every tool; otherwise the tools offered; `[]`: none. */
    tools: z.array(z.string()).optional(),
    /** Milliseconds a tool call may take. */
    timeout: z.number().positive().optional(),
    /** Milliseconds the server may take to start (answer `initialize` and `tools/list`); default 30 s. */
    startupTimeout: z.number().positive().optional(),
    /** Kept in the file by `agent mcp disable`. */
    disabled: z.boolean().optional(),
  }),
);

export type ServerConfig = z.infer<typeof serverConfigSchema>;

/**
 * serverConfigSchema's fields, to read a server's entry without building and running the schema when every field
 * has its type (src/util/plain-object.ts): a run with servers configured paid ~1.5 ms for it before its first
 * request. Anything else goes through the schema, which says what is wrong.
 */
export const PLAIN_SERVER_CONFIG: PlainShape = {
  type: ["local", "stdio", "http", "sse"],
  command: "string?",
  args: "strings?",
  env: "string-record?",
  cwd: "string?",
  workingDirectory: "string?",
  url: "string?",
  headers: "string-record?",
  tools: "strings?",
  timeout: "positive?",
  startupTimeout: "positive?",
  disabled: "boolean?",
};
const PLAIN_DOCUMENT: PlainShape = { mcpServers: "record?", servers: "record?" };

export interface ConfiguredServer {
  name: string;
  /** `local` and `stdio` are one transport. */
  transport: "stdio" | "http" | "sse";
  config: ServerConfig;
  /** Where it was configured, for /mcp and messages. */
  source: string;
}

/** Where servers are configured; also what folder trust is read from (our home, Copilot's, this session's). */
export interface McpSources extends TrustSources {
  cwd: string;
  /** The workspace (git root), where repository files are looked for besides cwd. */
  workspace?: string;
  /** --additional-mcp-config values: JSON text or @file. */
  additional?: readonly string[];
  /** --disable-mcp-server names (and an SDK client's disabledMcpServers): listed as disabled, not started. */
  disabled?: readonly string[];
  /** The session's plugins' MCP documents (installing a plugin is the user's decision to run them). */
  plugins?: readonly PluginMcpDocument[];
}

/** A plugin's MCP configuration, its root already filled in; `env` goes to each of its local servers. */
export interface PluginMcpDocument {
  plugin: string;
  file: string;
  text: string;
  env: Record<string, string>;
}

/** A plugin's servers, named for the plugin, each local one with the plugin's variables in its environment. */
function pluginServers(document: PluginMcpDocument): { servers: ConfiguredServer[]; problems: string[] } {
  const parsed = parseConfigDocument(document.text, `plugin ${document.plugin} (${document.file})`);
  const servers = parsed.servers.map((server) =>
    server.transport === "stdio" ? { ...server, config: { ...server.config, env: { ...document.env, ...server.config.env } } } : server,
  );
  return { servers, problems: parsed.problems };
}

export interface LoadedMcpConfig {
  servers: ConfiguredServer[];
  /** Problems found in the files, each a sentence for session.warning. */
  problems: string[];
  /** Servers listed but turned off for this session from the start (--disable-mcp-server, a client's disabledMcpServers). */
  disabled?: string[];
}

export const userConfigPath = (agentHome: string): string => path.join(agentHome, "mcp-config.json");

function transportOf(config: ServerConfig): ConfiguredServer["transport"] | undefined {
  if (config.type === "http" || config.type === "sse") return config.url ? config.type : undefined;
  if (config.type === undefined && config.url && !config.command) return "http";
  return config.command ? "stdio" : undefined;
}

/** The servers one document names, or a problem. `source` says where the document came from. */
export function parseConfigDocument(text: string, source: string): { servers: ConfiguredServer[]; problems: string[] } {
  let document: unknown;
  try {
    // Copilot writes its JSON files with comments at times; a file brought from there reads unchanged.
    document = parseJsonWithComments(text);
  } catch (error) {
    return { servers: [], problems: [`${source}: not valid JSON (${(error as Error).message})`] };
  }
  const top =
    (plainObject(document, PLAIN_DOCUMENT) as { mcpServers?: Record<string, unknown>; servers?: Record<string, unknown> } | undefined) ??
    z.looseObject({ mcpServers: z.record(z.string(), z.unknown()).optional(), servers: z.record(z.string(), z.unknown()).optional() }).safeParse(document).data;
  if (!top) return { servers: [], problems: [`${source}: expected {"mcpServers": {...}}`] };
  const entries = { ...top.servers, ...top.mcpServers };
  const servers: ConfiguredServer[] = [];
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(entries)) {
    const plain = plainObject(raw, PLAIN_SERVER_CONFIG) as ServerConfig | undefined;
    const parsed = plain ? { success: true as const, data: plain } : serverConfigSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(`${source}: MCP server "${name}": ${z.prettifyError(parsed.error).replace(/\n/g, " ")}`);
      continue;
    }
    const transport = transportOf(parsed.data);
    if (!transport) {
      problems.push(`${source}: MCP server "${name}" needs a "command" (local/stdio) or a "url" (http/sse)`);
      continue;
    }
    servers.push({ name, transport, config: parsed.data, source });
  }
  return { servers, problems };
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export function loadMcpConfig(sources: McpSources): LoadedMcpConfig {
  const byName = new Map<string, ConfiguredServer>();
  const problems: string[] = [];
  const add = (parsed: { servers: ConfiguredServer[]; problems: string[] }) => {
    for (const server of parsed.servers) byName.set(server.name, server);
    problems.push(...parsed.problems);
  };
  for (const document of sources.plugins ?? []) add(pluginServers(document));
  for (const home of userFolders(sources)) {
    const user = userConfigPath(home);
    const userText = readIfPresent(user);
    if (userText !== undefined) add(parseConfigDocument(userText, user));
  }
  const withheld = new Map<string, string[]>();
  for (const file of repositoryConfigFiles(sources)) {
    const verdict = mayRun(file, "repository", sources);
    const text = readIfPresent(file);
    if (text === undefined) continue;
    if (verdict.allowed) add(parseConfigDocument(text, file));
    else withheld.set(verdict.folder, [...(withheld.get(verdict.folder) ?? []), file]);
  }
  for (const [folder, files] of withheld) {
    problems.push(`MCP servers in ${files.join(", ")} were not started: ${folder} is not a trusted folder. ${howToTrust(folder, sources.agentHome)}`);
  }
  for (const value of sources.additional ?? []) {
    if (value.startsWith("@")) {
      const file = path.resolve(sources.cwd, value.slice(1));
      const text = readIfPresent(file);
      if (text === undefined) problems.push(`--additional-mcp-config ${value}: no such file`);
      else add(parseConfigDocument(text, file));
    } else add(parseConfigDocument(value, "--additional-mcp-config"));
  }
  // Disabled for the session, a server is still listed (as /mcp disable leaves it) and may be enabled later.
  const servers = [...byName.values()].filter((server) => server.config.disabled !== true);
  const disabled = servers.map((server) => server.name).filter((name) => sources.disabled?.includes(name));
  return { servers, problems, ...(disabled.length > 0 ? { disabled } : {}) };
}

/** A custom agent's own servers (its file's `mcp-servers`, the same shape as mcp-config.json's servers). */
export function agentMcpConfig(agentName: string, servers: Record<string, unknown>, disabled: readonly string[] = []): LoadedMcpConfig {
  const parsed = parseConfigDocument(JSON.stringify({ mcpServers: servers }), `agent ${agentName} (mcp-servers)`);
  const skip = new Set(disabled);
  return { servers: parsed.servers.filter((server) => !skip.has(server.name) && server.config.disabled !== true), problems: parsed.problems };
}

/**
 * Every server the session's configuration files and --additional-mcp-config define, started or not
 * (disabled, or in a folder not trusted yet), the later source's entry for a name: what --disable-mcp-server
 * may name, and what an SDK client's mcp.discover lists.
 */
export function definedServers(sources: Omit<McpSources, "disabled">): ConfiguredServer[] {
  const byName = new Map<string, ConfiguredServer>();
  const add = (text: string | undefined, source: string) => {
    if (text === undefined) return;
    for (const server of parseConfigDocument(text, source).servers) byName.set(server.name, server);
  };
  for (const document of sources.plugins ?? []) add(document.text, document.file);
  for (const home of userFolders(sources)) add(readIfPresent(userConfigPath(home)), userConfigPath(home));
  for (const file of repositoryConfigFiles(sources)) add(readIfPresent(file), file);
  for (const value of sources.additional ?? []) {
    const file = value.startsWith("@") ? path.resolve(sources.cwd, value.slice(1)) : undefined;
    add(file ? readIfPresent(file) : value, file ?? "--additional-mcp-config");
  }
  return [...byName.values()];
}

export function definedServerNames(sources: Omit<McpSources, "disabled">): string[] {
  return definedServers(sources).map((server) => server.name);
}

/** The first thing wrong with an --additional-mcp-config value (bad JSON, a missing @file, a bad server), if any. */
export function additionalConfigProblem(value: string, cwd: string): string | undefined {
  const flag = `--additional-mcp-config ${value.length > 60 ? `${value.slice(0, 59)}…` : value}`;
  let text = value;
  if (value.startsWith("@")) {
    const found = readIfPresent(path.resolve(cwd, value.slice(1)));
    if (found === undefined) return `${flag}: no such file`;
    text = found;
  }
  return parseConfigDocument(text, flag).problems[0];
}
