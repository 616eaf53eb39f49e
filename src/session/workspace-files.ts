/**
 * The session folder's `files/`: artifacts kept with the session (an SDK client's images and large pastes).
 * A client names a file there by a path relative to that folder; one that leads outside it (`..`, an absolute
 * path, a symbolic link pointing out) is refused, so the SDK's readFile cannot read anything else.
 */
import { randomUUID } from "../util/random-id.js";
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { makePrivateDir, replacePrivateFile, writePrivateFile } from "../util/private-files.js";

export const WORKSPACE_FILES_DIR = "files";

export const workspaceFilesDir = (sessionDir: string): string => path.join(sessionDir, WORKSPACE_FILES_DIR);

/** Writes one private file in `files/` (made private when missing) and returns its path. */
export function saveWorkspaceFile(sessionDir: string, filename: string, data: string | Uint8Array): string {
  const dir = workspaceFilesDir(sessionDir);
  makePrivateDir(dir);
  const file = path.join(dir, filename);
  writePrivateFile(file, data, { exclusive: true });
  return file;
}

export interface SavedPaste {
  filePath: string;
  filename: string;
  sizeBytes: number;
}

/** A paste too large for the prompt, kept as a UTF-8 file the prompt can name instead. */
export function saveLargePaste(sessionDir: string, content: string): SavedPaste {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const filename = `paste-${stamp}-${randomUUID().slice(0, 8)}.txt`;
  const filePath = saveWorkspaceFile(sessionDir, filename, content);
  return { filePath, filename, sizeBytes: Buffer.byteLength(content, "utf8") };
}

/** The files under `files/`, relative to it with `/` separators, sorted; none when there is no folder. */
export function listWorkspaceFiles(sessionDir: string): string[] {
  const dir = workspaceFilesDir(sessionDir);
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

const inside = (dir: string, file: string) => {
  const relative = path.relative(dir, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
};

/**
 * Creates or replaces a file of `files/` (the SDK's createFile), making its folders; returns which it did. A
 * path outside the folder, or through a symbolic link, is an error saying so.
 */
export function writeWorkspaceFile(sessionDir: string, relative: string, content: string): "create" | "update" {
  const dir = workspaceFilesDir(sessionDir);
  const file = path.resolve(dir, relative);
  if (path.isAbsolute(relative) || !inside(dir, file)) throw new Error(`Path escapes the workspace files directory: ${relative}`);
  makePrivateDir(dir);
  // A link anywhere on the way (even one pointing nowhere yet) could lead the write out of the folder.
  for (let at = file; at !== dir; at = path.dirname(at)) {
    if (lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink()) throw new Error(`Path escapes the workspace files directory: ${relative}`);
  }
  makePrivateDir(path.dirname(file));
  const operation = existsSync(file) ? "update" : "create";
  replacePrivateFile(file, content);
  return operation;
}

/** A file of `files/` as UTF-8; a path outside the folder or a missing file is an error saying so. */
export function readWorkspaceFile(sessionDir: string, relative: string): string {
  const dir = workspaceFilesDir(sessionDir);
  const file = path.resolve(dir, relative);
  if (path.isAbsolute(relative) || !inside(dir, file)) throw new Error(`Path escapes the workspace files directory: ${relative}`);
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    throw new Error(`No such file in the session's files folder: ${relative}`);
  }
  if (!inside(realpathSync(dir), real)) throw new Error(`Path escapes the workspace files directory: ${relative}`);
  return readFileSync(real, "utf8");
}
