/**
 * Where a repository configures MCP servers: `.mcp.json`, `.github/mcp.json` and `.vscode/mcp.json`, in the git
 * root and in the cwd. Found with file checks alone, so asking costs no parsing.
 */
import { existsSync } from "node:fs";
import path from "node:path";

export const REPO_MCP_FILES = [".mcp.json", path.join(".github", "mcp.json"), path.join(".vscode", "mcp.json")];

/** The repository's MCP files that exist, in the git root then the cwd. */
export function repositoryConfigFiles(sources: { cwd: string; workspace?: string }): string[] {
  const folders = [...new Set([sources.workspace, sources.cwd].filter((folder): folder is string => folder !== undefined))];
  return folders.flatMap((folder) => REPO_MCP_FILES.map((file) => path.join(folder, file)).filter((file) => existsSync(file)));
}
