/**
 * Folder trust: the one answer to "may this program-running thing, named by file F, run?". Hooks, MCP
 * server configurations and an agent file's `mcp-servers` run programs chosen by whoever wrote the file. The
 * user's own files (our home, Copilot's home) always may; a repository's only when the folder that holds the
 * file is trusted, and for a file under `.github/` or `.vscode/` that folder is the one above it (the
 * repository root): trusting a subfolder never trusts the files of the folders above it.
 *
 * Trusted folders are Copilot's: `trustedFolders` in config.json (ours, and Copilot's home's, read as JSON
 * with comments), plus folders trusted for one session. A trusted folder covers its subfolders. Paths are
 * compared canonicalised: symlinks and `..` resolved by the file system, relative or empty entries ignored.
 */
import { readFileSync, realpathSync } from "node:fs";
import { makePrivateDir, replacePrivateFile } from "../util/private-files.js";
import path from "node:path";
import { parseJsonWithComments } from "../util/json-with-comments.js";
import { userFolders, type Homes } from "./agent-home.js";

export const configFilePath = (agentHome: string): string => path.join(agentHome, "config.json");

/** Where trust comes from: the homes' config.json files, and folders trusted for this session only. */
export interface TrustSources extends Homes {
  trustedThisSession?: readonly string[];
}

/** Who wrote the file that names the program: the user (its homes, the command line, a client) or a repository. */
export type ProgramOrigin = "user" | "repository";

export type RunVerdict = { allowed: true } | { allowed: false; folder: string; reason: string };

function readConfig(home: string): Record<string, unknown> {
  try {
    const parsed = parseJsonWithComments(readFileSync(configFilePath(home), "utf8"));
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The path as the file system sees it: the deepest existing ancestor resolved by the kernel (symlinks, and
 * `..` after a symlink, as a program opening it would see them), the rest appended.
 */
export function canonicalPath(target: string): string {
  let existing = path.isAbsolute(target) ? target : path.resolve(target);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync.native(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return path.resolve(target);
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

const listed = (home: string): string[] => {
  const list = readConfig(home).trustedFolders;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : [];
};

/** Every trusted folder, canonicalised. An entry that is not an absolute path trusts nothing (never the process's cwd). */
export function trustedFolders(sources: TrustSources | string): string[] {
  const { trustedThisSession = [], ...homes } = typeof sources === "string" ? { agentHome: sources } : sources;
  const entries = [...userFolders(homes).flatMap(listed), ...trustedThisSession];
  return [...new Set(entries.filter((entry) => path.isAbsolute(entry.trim())).map((entry) => canonicalPath(entry.trim())))];
}

function within(dir: string, root: string): boolean {
  return dir === root || dir.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

export function isFolderTrusted(sources: TrustSources | string, dir: string): boolean {
  const target = canonicalPath(dir);
  return trustedFolders(sources).some((folder) => within(target, folder));
}

/** Folders whose files configure the repository above them: their files are trusted as that folder's. */
const CONFIG_FOLDERS = new Set([".github", ".vscode"]);

/** The folder whose trust a repository file needs: the one holding it, or the one above its `.github`/`.vscode`. */
export function trustRootOf(file: string): string {
  const dir = path.dirname(path.resolve(file));
  // `.github/mcp.json`, `.github/hooks/x.json`, `.github/agents/x.agent.md`: one or two levels down.
  for (const probe of [dir, path.dirname(dir)]) if (CONFIG_FOLDERS.has(path.basename(probe))) return path.dirname(probe);
  return dir;
}

/** May the program(s) that `file` names run? The user's own files may; a repository's wait for its folder's trust. */
export function mayRun(file: string, origin: ProgramOrigin, sources: TrustSources | string): RunVerdict {
  if (origin === "user") return { allowed: true };
  const folder = trustRootOf(file);
  if (isFolderTrusted(sources, folder)) return { allowed: true };
  return { allowed: false, folder, reason: `${folder} is not a trusted folder` };
}

/** How to trust `folder`, in words for a warning. */
export function howToTrust(folder: string, agentHome: string): string {
  return `To trust it, add "${folder}" to "trustedFolders" in ${configFilePath(agentHome)}, or start agent there without -p and choose to trust it.`;
}

/** Of nested folders, the one that covers the others (the repository root over a subfolder). */
export function outermost(folders: readonly string[]): string | undefined {
  return [...folders].sort((a, b) => a.length - b.length)[0];
}

/** Remembers `dir` as trusted (the "always" answer), in our own config.json only; other keys stay as they are. */
export function trustFolder(agentHome: string, dir: string): void {
  const config = readConfig(agentHome);
  const folders = listed(agentHome);
  const target = canonicalPath(dir);
  if (folders.some((folder) => path.isAbsolute(folder) && canonicalPath(folder) === target)) return;
  makePrivateDir(agentHome);
  replacePrivateFile(configFilePath(agentHome), `${JSON.stringify({ ...config, trustedFolders: [...folders, target] }, null, 2)}\n`);
}
