/**
 * --additional-mcp-config and --disable-mcp-server, checked before anything starts: a bad config value is a
 * usage error (it would otherwise only be a warning once the session is up), and a disabled name that no
 * configuration defines is most likely a typo, so it gets a warning listing the names there are.
 */
import { loadAgentFiles } from "../config/agent-files.js";
import { resolveHomes } from "../config/agent-home.js";
import { additionalConfigProblem, definedServerNames } from "../mcp/mcp-config.js";
import { findGitRoot } from "../util/git-root.js";
import type { CliOptions } from "./cli-options.js";

export interface McpFlagCheck {
  /** The usage error, when a config value is bad. */
  error?: string;
  warnings: string[];
}

export function checkMcpFlags(mcp: CliOptions["mcp"], cwd: string, env: NodeJS.ProcessEnv = process.env): McpFlagCheck {
  const additional = mcp?.additional ?? [];
  for (const value of additional) {
    const problem = additionalConfigProblem(value, cwd);
    if (problem) return { error: problem, warnings: [] };
  }
  const disabled = mcp?.disabled ?? [];
  if (disabled.length === 0) return { warnings: [] };
  const known = configuredServerNames(additional, cwd, env);
  const list = known.size > 0 ? `known servers: ${[...known].sort().join(", ")}` : "no MCP servers are configured";
  const warnings = disabled.filter((name) => !known.has(name)).map((name) => `--disable-mcp-server ${name}: no configuration defines this server (${list})`);
  return { warnings };
}

/** Every MCP server a session here could start: the configuration files, --additional-mcp-config and agent files' `mcp-servers`. */
export function configuredServerNames(additional: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Set<string> {
  const homes = resolveHomes(env);
  const workspace = findGitRoot(cwd)?.root;
  const known = new Set(definedServerNames({ ...homes, cwd, workspace, additional }));
  // Names only: an agent file's servers count as defined whether or not folder trust lets them start.
  for (const agent of loadAgentFiles({ ...homes, gitRoot: workspace, trust: homes }).agents) {
    for (const name of [...Object.keys(agent.mcpServers ?? {}), ...(agent.withheldMcpServers ?? [])]) known.add(name);
  }
  return known;
}
