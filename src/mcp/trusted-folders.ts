/**
 * Whether a folder is trusted ($AGENT_HOME/config.json `{"trustedFolders": [...]}`, Copilot's file): a
 * repository's own MCP servers start only in a trusted folder, since its files choose what runs.
 * A tiny reader of our own for now; folder trust for hooks arrives in parallel and the two will be unified.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export function isTrustedFolder(agentHome: string, folder: string): boolean {
  let trusted: unknown;
  try {
    trusted = (JSON.parse(readFileSync(path.join(agentHome, "config.json"), "utf8")) as { trustedFolders?: unknown }).trustedFolders;
  } catch {
    return false;
  }
  if (!Array.isArray(trusted)) return false;
  const wanted = path.resolve(folder);
  return trusted.some((entry) => {
    if (typeof entry !== "string" || entry.trim() === "") return false;
    const root = path.resolve(entry);
    const relative = path.relative(root, wanted);
    return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
  });
}
