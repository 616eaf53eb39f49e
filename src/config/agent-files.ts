/**
 * Agent definition files (`*.agent.md`, Copilot CLI's format): YAML frontmatter, then the agent's system
 * prompt as the body. Built-ins ship in the package's `agents/` folder; users add their own in
 * `agents/` of Copilot's home and of ours (ours wins) and repositories in `<git root>/.github/agents/` (the
 * repo's wins on a name clash). No file may take a built-in's name: it is refused, and the built-in keeps its
 * tools and prompt. A repository file's `mcp-servers` start only where folder trust lets them run; otherwise the
 * agent loads without them and a warning says why. A bad file is reported with the file and the field, and
 * the other files still load.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseYaml } from "../util/yaml-parser.js";
import { builtinAgentsDir } from "./builtin-agents-dir.js";
import { userFolders } from "./agent-home.js";

export { builtinAgentsDir };
import { resolveToolNames } from "./agent-tool-aliases.js";
import { howToTrust, mayRun, type TrustSources } from "./folder-trust.js";

export type AgentSource = "builtin" | "user" | "repo";

export interface AgentDefinition {
  name: string;
  displayName: string;
  description: string;
  /** Our tool names the agent may use; absent means every tool (`"*"` or no `tools` key). */
  tools?: readonly string[];
  model?: string;
  source: AgentSource;
  /** The file's body. */
  systemPrompt: string;
  /** A person may pick it (`/agent`, `--agent`). */
  userInvocable: boolean;
  /** The model may delegate to it through the `task` tool. */
  modelInvocable: boolean;
  /** `mcp-servers`, kept as written for the MCP servers to start. */
  mcpServers?: Record<string, unknown>;
  /** The names of `mcp-servers` left out because folder trust does not let the file's programs run. */
  withheldMcpServers?: string[];
  /** The plugin it came with (its source is then "user": installing the plugin was the user's choice). */
  pluginName?: string;
  /** `skills`: the skills it sees (and has loaded when it starts); absent: every skill, none loaded. */
  skills?: readonly string[];
  file: string;
}

/** Something wrong with one file: `field` names the frontmatter key when one is at fault. */
export interface AgentFileProblem {
  file: string;
  field?: string;
  message: string;
}

export interface AgentFiles {
  agents: AgentDefinition[];
  /** Files that could not be loaded. */
  errors: AgentFileProblem[];
  /** Files that loaded with something dropped (an unknown tool name). */
  warnings: AgentFileProblem[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** The frontmatter's schema, built at the first file that needs checking (the built-ins were checked by the build). */
function buildFrontmatterSchema() {
  const stringList = z.union([
    z.array(z.string()),
    z.string().transform((text) =>
      text
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ]);

  return z.strictObject({
    name: z.string().regex(NAME, "letters, digits, '.', '_' and '-' only").optional(),
    displayName: z.string().min(1).optional(),
    description: z.string().min(1, "must not be empty"),
    tools: stringList.optional(),
    model: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    "disable-model-invocation": z.boolean().optional(),
    "user-invocable": z.boolean().optional(),
    /** Legacy Copilot key: `infer: false` keeps the model from choosing the agent. */
    infer: z.boolean().optional(),
    "mcp-servers": z.record(z.string(), z.unknown()).optional(),
    skills: stringList.optional(),
    // Keys Copilot CLI and VS Code also read; accepted so shared files load.
    "argument-hint": z.string().optional(),
    target: z.string().optional(),
    handoffs: z.array(z.unknown()).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  });
}
let frontmatterSchema: ReturnType<typeof buildFrontmatterSchema> | undefined;
type Frontmatter = z.infer<ReturnType<typeof buildFrontmatterSchema>>;

/** Checks a file's parsed frontmatter. The build runs it over the built-in agents (dist/agents-frontmatter.json). */
export function checkFrontmatter(raw: unknown): { ok: true; data: Frontmatter } | { ok: false; field?: string; message: string } {
  // jitless: a handful of parses per run do not repay compiling a fast path for the schema.
  const parsed = (frontmatterSchema ??= buildFrontmatterSchema()).safeParse(raw ?? {}, { jitless: true });
  if (parsed.success) return { ok: true, data: parsed.data };
  const issue = parsed.error.issues[0]!;
  const field = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : issue.path.length > 0 ? issue.path.map(String).join(".") : undefined;
  const message = issue.code === "unrecognized_keys" ? "unknown key" : issue.message;
  return { ok: false, ...(field ? { field } : {}), message };
}

/**
 * The built-in agents' frontmatter, parsed and checked by the build (dist/agents-frontmatter.json, keyed by
 * its text), so a session that only has the built-ins loads no YAML parser and builds no schema before its
 * first request. The check depends on the text alone, so a cached entry is exactly what checking would give.
 */
let checkedAtBuild: Map<string, Frontmatter> | undefined;
function loadCheckedAtBuild(): Map<string, Frontmatter> {
  const agents = builtinAgentsDir();
  const file = agents ? path.join(path.dirname(agents), "dist", "agents-frontmatter.json") : undefined;
  try {
    return file && existsSync(file) ? new Map(Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, Frontmatter>)) : new Map();
  } catch {
    return new Map(); // a damaged cache only costs the parse
  }
}

const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

/** "code-review" → "Code Review". */
function titleCase(name: string): string {
  return name
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(" ");
}

export type ParsedAgentFile = { ok: true; agent: AgentDefinition; warnings: AgentFileProblem[] } | { ok: false; error: AgentFileProblem };

/** Parses one file's text. The name defaults to the file name without `.agent.md` / `.md`. */
export function parseAgentFile(file: string, text: string, source: AgentSource): ParsedAgentFile {
  const match = FRONTMATTER.exec(text);
  if (!match) return { ok: false, error: { file, message: "no YAML frontmatter (the file must start with a '---' line and close it with another)" } };
  const frontText = match[1] as string;
  let front = (checkedAtBuild ??= loadCheckedAtBuild()).get(frontText);
  if (!front) {
    let raw: unknown;
    try {
      raw = parseYaml(frontText);
    } catch (error) {
      return { ok: false, error: { file, message: `the frontmatter is not valid YAML: ${(error as Error).message.split("\n")[0]}` } };
    }
    const checked = checkFrontmatter(raw);
    if (!checked.ok) return { ok: false, error: { file, ...(checked.field ? { field: checked.field } : {}), message: checked.message } };
    front = checked.data;
  }
  const name = front.name ?? path.basename(file).replace(/(\.agent)?\.md$/i, "");
  if (!NAME.test(name))
    return { ok: false, error: { file, field: "name", message: `"${name}" is not a usable agent name (letters, digits, '.', '_' and '-' only)` } };
  const warnings: AgentFileProblem[] = [];
  const resolved = front.tools ? resolveToolNames(front.tools) : undefined;
  if (resolved && resolved.unknown.length > 0) {
    warnings.push({ file, field: "tools", message: `unknown tool name(s) ignored: ${resolved.unknown.join(", ")}` });
  }
  const model = Array.isArray(front.model) ? front.model[0] : front.model;
  const agent: AgentDefinition = {
    name,
    displayName: front.displayName ?? titleCase(name),
    description: front.description.trim(),
    ...(resolved ? { tools: resolved.tools } : {}),
    ...(model ? { model } : {}),
    source,
    systemPrompt: (match[2] as string).trim(),
    userInvocable: front["user-invocable"] ?? true,
    modelInvocable: !(front["disable-model-invocation"] ?? false) && front.infer !== false,
    ...(front["mcp-servers"] ? { mcpServers: front["mcp-servers"] } : {}),
    ...(front.skills ? { skills: front.skills } : {}),
    file,
  };
  return { ok: true, agent, warnings };
}

/** The agent files of one folder, sorted; a missing folder is none. */
function agentFilesIn(dir: string, pattern: RegExp): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => path.join(dir, name));
}

export interface AgentFileLocations {
  /** Where user agents live (`<agentHome>/agents`); none without it. */
  agentHome?: string;
  /** Copilot's home: its `agents/` is read before ours, so ours wins on a name both have. */
  copilotHome?: string;
  gitRoot?: string;
  /** Defaults to the package's own folder. */
  builtinDir?: string;
  /** What folder trust is read from; without it no repository file's `mcp-servers` may run. */
  trust?: TrustSources;
  /** The session's plugins' agent folders: read after the built-ins and before the user's own (which win). */
  plugins?: readonly { dir: string; plugin: string }[];
}

/** Names compared as a person reads them: "Explore", "explore" and "EXPLORE" are one agent. */
const canonicalName = (name: string): string => name.toLowerCase();

/** A repository file's servers, when folder trust does not let them run: left out, with the warning that says so. */
function withholdUntrustedServers(agent: AgentDefinition, trust: TrustSources | undefined): AgentFileProblem | undefined {
  if (agent.source !== "repo" || !agent.mcpServers) return undefined;
  const verdict = trust
    ? mayRun(agent.file, "repository", trust)
    : { allowed: false as const, folder: path.dirname(agent.file), reason: "no folder is trusted here" };
  if (verdict.allowed) return undefined;
  const names = Object.keys(agent.mcpServers);
  delete agent.mcpServers;
  agent.withheldMcpServers = names;
  const how = trust ? ` ${howToTrust(verdict.folder, trust.agentHome)}` : "";
  return {
    file: agent.file,
    field: "mcp-servers",
    message: `its MCP server${names.length > 1 ? "s" : ""} ${names.join(", ")} will not start: ${verdict.reason}. The agent loads without ${names.length > 1 ? "them" : "it"}.${how}`,
  };
}

interface AgentFileSource {
  source: AgentSource;
  files: string[];
  /** The plugin whose folder the files came from. */
  plugin?: string;
}

/** The plugins', the user's and the repository's agent files (the built-ins only change with the package). */
function changeableAgentFiles(locations: AgentFileLocations): AgentFileSource[] {
  const userDirs = locations.agentHome
    ? userFolders({ agentHome: locations.agentHome, ...(locations.copilotHome ? { copilotHome: locations.copilotHome } : {}) }, "agents")
    : [];
  return [
    // A plugin's agents are `*.md` (Claude Code's) or `*.agent.md` (Copilot's); the user's own come after and win.
    ...(locations.plugins ?? []).map(({ dir, plugin }) => ({ source: "user" as const, files: agentFilesIn(dir, /\.md$/i), plugin })),
    { source: "user", files: userDirs.flatMap((dir) => agentFilesIn(dir, /\.agent\.md$/i)) },
    { source: "repo", files: locations.gitRoot ? agentFilesIn(path.join(locations.gitRoot, ".github", "agents"), /\.agent\.md$/i) : [] },
  ];
}

/**
 * What identifies the agent files as they are now (names, sizes, times): a running session compares it to
 * the one it loaded, and loads again when a file was added, removed or edited.
 */
export function agentFilesStamp(locations: AgentFileLocations): string {
  const parts: string[] = [];
  for (const { files } of changeableAgentFiles(locations)) {
    for (const file of files) {
      try {
        const stats = statSync(file);
        parts.push(`${file}:${stats.size}:${stats.mtimeMs}:${stats.ino}`);
      } catch {
        parts.push(`${file}:gone`);
      }
    }
  }
  return parts.join("\n");
}

/** Loads every agent: built-ins, then user files, then repo files; a later source replaces a same-named agent. */
export function loadAgentFiles(locations: AgentFileLocations): AgentFiles {
  const builtinDir = locations.builtinDir ?? builtinAgentsDir();
  const sources: AgentFileSource[] = [
    { source: "builtin", files: builtinDir ? agentFilesIn(builtinDir, /\.agent\.md$/i) : [] },
    ...changeableAgentFiles(locations),
  ];
  const byName = new Map<string, AgentDefinition>();
  const builtinNames = new Set<string>();
  const errors: AgentFileProblem[] = [];
  const warnings: AgentFileProblem[] = [];
  for (const { source, files, plugin } of sources) {
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (error) {
        errors.push({ file, message: `cannot read: ${(error as Error).message}` });
        continue;
      }
      const parsed = parseAgentFile(file, text, source);
      if (!parsed.ok) {
        errors.push(parsed.error);
        continue;
      }
      const { agent } = parsed;
      if (plugin) agent.pluginName = plugin;
      if (source === "builtin") builtinNames.add(canonicalName(agent.name));
      else if (builtinNames.has(canonicalName(agent.name))) {
        errors.push({
          file,
          field: "name",
          message: `"${agent.name}" is the name of a built-in agent, which a file cannot replace; give this agent another name (name: my-${agent.name.toLowerCase()})`,
        });
        continue;
      }
      warnings.push(...parsed.warnings);
      const withheld = withholdUntrustedServers(agent, locations.trust);
      if (withheld) warnings.push(withheld);
      // Re-inserting moves a replaced agent to its new source's place in the order (names compared canonically).
      for (const key of byName.keys()) if (canonicalName(key) === canonicalName(agent.name)) byName.delete(key);
      byName.set(agent.name, agent);
    }
  }
  return { agents: [...byName.values()], errors, warnings };
}

/** One line per problem, for a warning or stderr: `file: field "tools": message`. */
export function describeAgentFileProblem(problem: AgentFileProblem): string {
  return `${problem.file}: ${problem.field ? `field "${problem.field}": ` : ""}${problem.message}`;
}
