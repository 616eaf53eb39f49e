/**
 * A file the create or edit tool makes. Inside the session folder (plan.md, /research reports) it is private
 * like everything else the agent keeps there; in the workspace the umask decides, as for any editor.
 */
import { realpathSync } from "node:fs";
import { mkdir, writeFile } from "../util/promised-fs.js";
import path from "node:path";
import { makePrivateDir, writePrivateFile } from "../util/private-files.js";

function inSessionFolder(file: string, sessionDir: string): boolean {
  if (sessionDir === "") return false;
  const roots = [path.resolve(sessionDir)];
  try {
    roots.push(realpathSync(sessionDir));
  } catch {
    // not there yet: the path as given is all there is
  }
  return roots.some((root) => file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
}

/** Creates the missing folders above `file`. */
export async function makeParentFolders(file: string, sessionDir: string): Promise<void> {
  if (inSessionFolder(file, sessionDir)) makePrivateDir(path.dirname(file));
  else await mkdir(path.dirname(file), { recursive: true });
}

/** Writes a file that must not exist yet (EEXIST otherwise). */
export async function writeNewFile(file: string, text: string, sessionDir: string): Promise<void> {
  if (inSessionFolder(file, sessionDir)) writePrivateFile(file, text, { exclusive: true });
  else await writeFile(file, text, { encoding: "utf8", flag: "wx" });
}
