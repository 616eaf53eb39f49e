/**
 * What the repository here would run that folder trust holds back: its hooks, its MCP configuration files and
 * its agent files' `mcp-servers`, each judged by folder trust's one rule (mayRun). The TUI asks about them
 * once, before its first session, naming the folder to trust (the outermost of the folders they wait for:
 * the git root when a file there is among them) and what would run. Finding them costs listings and a text
 * scan; the files are parsed only to list their commands for the question.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { mayRun, outermost, type TrustSources } from "../config/folder-trust.js";
import { repositoryConfigFiles } from "../mcp/repository-files.js";
import { findGitRoot } from "../util/git-root.js";

export interface HeldBackPrograms {
  /** The folder whose trust would let all of them run. */
  folder: string;
  /** What would run, one line each, for the question. */
  commands(): Promise<string[]>;
}

function filesIn(dir: string, pattern: RegExp): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => pattern.test(name))
      .sort()
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

function read(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Agent files whose frontmatter names servers (a text scan: no YAML parser for the common case of none). */
const agentFilesWithServers = (gitRoot: string): string[] =>
  filesIn(path.join(gitRoot, ".github", "agents"), /\.agent\.md$/i).filter((file) => /^mcp-servers\s*:/m.test(read(file)));

interface Held {
  hooks: string[];
  mcp: string[];
  agents: string[];
}

async function commandsOf(held: Held, root: string): Promise<string[]> {
  const [{ readHookFiles }, { agentMcpConfig, parseConfigDocument }, { parseAgentFile }] = await Promise.all([
    import("../hooks/load-hooks.js"),
    import("../mcp/mcp-config.js"),
    import("../config/agent-files.js"),
  ]);
  const where = (file: string) => path.relative(root, file);
  const serverLine = (file: string) => (server: { name: string; config: { url?: string; command?: string; args?: string[] } }) =>
    `MCP server ${server.name}: ${server.config.url ?? [server.config.command, ...(server.config.args ?? [])].join(" ")} (${where(file)})`;
  const hooks = readHookFiles(held.hooks, "repo", root);
  return [
    ...hooks.hooks.map((hook) => `${hook.event}: ${hook.command} (${where(hook.source.file)})`),
    ...hooks.problems.map((problem) => `(not loadable) ${problem}`),
    ...held.mcp.flatMap((file) => parseConfigDocument(read(file), file).servers.map(serverLine(file))),
    ...held.agents.flatMap((file) => {
      const parsed = parseAgentFile(file, read(file), "repo");
      return parsed.ok && parsed.agent.mcpServers ? agentMcpConfig(parsed.agent.name, parsed.agent.mcpServers).servers.map(serverLine(file)) : [];
    }),
  ];
}

/** The repository's programs that folder trust holds back here, or undefined when there are none. */
export function heldBackPrograms(trust: TrustSources, cwd: string, options: { hooks: boolean }): HeldBackPrograms | undefined {
  const gitRoot = findGitRoot(cwd)?.root;
  const folders: string[] = [];
  const heldBack = (files: string[]) =>
    files.filter((file) => {
      const verdict = mayRun(file, "repository", trust);
      if (!verdict.allowed) folders.push(verdict.folder);
      return !verdict.allowed;
    });
  const held: Held = {
    hooks: heldBack(options.hooks && gitRoot ? filesIn(path.join(gitRoot, ".github", "hooks"), /\.json$/) : []),
    mcp: heldBack(repositoryConfigFiles({ cwd, ...(gitRoot ? { workspace: gitRoot } : {}) })),
    agents: heldBack(gitRoot ? agentFilesWithServers(gitRoot) : []),
  };
  const folder = outermost(folders);
  return folder ? { folder, commands: () => commandsOf(held, gitRoot ?? cwd) } : undefined;
}
