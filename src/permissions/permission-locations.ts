/**
 * Copilot's permission locations: the approvals permissions-config.json keeps are filed under a location, the
 * git repository's root when the directory is in one ("repo"), else the directory itself ("dir"). Keys are
 * canonical paths (symlinks resolved), so one folder reached two ways is one location.
 */
import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { findGitRoot } from "../util/git-root.js";

export interface Location {
  locationKey: string;
  locationType: "repo" | "dir";
}

/** An existing directory's canonical path, or why it is not one. */
export function canonicalDirectory(dir: string): { path: string } | { problem: string } {
  if (!path.isAbsolute(dir)) return { problem: `The directory must be an absolute path: ${dir}` };
  try {
    const resolved = realpathSync.native(dir);
    return statSync(resolved).isDirectory() ? { path: resolved } : { problem: `Not a directory: ${dir}` };
  } catch {
    return { problem: `The directory ${dir} does not exist.` };
  }
}

/** The location of an existing directory; a string says why there is none. */
export function locationOf(dir: string): Location | string {
  const found = canonicalDirectory(dir);
  if ("problem" in found) return found.problem;
  const repo = findGitRoot(found.path);
  return repo ? { locationKey: realpathSync.native(repo.root), locationType: "repo" } : { locationKey: found.path, locationType: "dir" };
}
