/**
 * Where skills are looked for, in order of precedence (a name found again later is reported, not loaded):
 * built-in; the user's (`skills/` of our home, then of Copilot's, then `~/.claude/skills` and
 * `~/.agents/skills`); the project's (`.github/skills`, `.claude/skills`, `.agents/skills` in the working
 * directory, then each folder above it up to the git root); plugins'; `COPILOT_SKILLS_DIRS` and settings'
 * `skillDirectories`; a client's (the SDK's `skillDirectories`). Each folder holds one folder per skill
 * (`<name>/SKILL.md`), or is itself a skill's folder.
 */
import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { userFolders } from "../config/agent-home.js";
import { SKILL_FILE, type SkillOrigin } from "./skill-file.js";

export interface SkillFolder {
  dir: string;
  origin: SkillOrigin;
}

/** A plugin's skills folder, named for the plugin. */
export interface PluginSkillFolder {
  dir: string;
  pluginName: string;
  pluginVersion?: string;
}

export interface SkillLocations {
  agentHome?: string;
  copilotHome?: string;
  /** The user's home folder, for `~/.claude/skills` and `~/.agents/skills` (not read without it) and `~` in configured folders. */
  userHome?: string;
  cwd: string;
  gitRoot?: string;
  builtinDir?: string;
  plugins?: readonly PluginSkillFolder[];
  /** `COPILOT_SKILLS_DIRS` and settings' `skillDirectories` (the user's own). */
  customDirs?: readonly string[];
  /** A client's own folders (the SDK's `skillDirectories`). */
  clientDirs?: readonly string[];
}

/** The project folders to look in: the working directory, then each one above it up to the git root. */
function projectRoots(cwd: string, gitRoot: string | undefined): string[] {
  const roots = [path.resolve(cwd)];
  if (!gitRoot) return roots;
  const top = path.resolve(gitRoot);
  let dir = roots[0] as string;
  while (dir !== top && dir.startsWith(top + path.sep)) {
    dir = path.dirname(dir);
    roots.push(dir);
  }
  return roots;
}

const PROJECT_SKILL_DIRS = [path.join(".github", "skills"), path.join(".claude", "skills"), path.join(".agents", "skills")];

/** `~/x` is the user's; a relative folder is the working directory's. */
function resolveConfigured(dir: string, locations: SkillLocations): string {
  const home = locations.userHome ?? os.homedir();
  if (dir === "~") return home;
  if (dir.startsWith("~/")) return path.join(home, dir.slice(2));
  return path.resolve(locations.cwd, dir);
}

/** `COPILOT_SKILLS_DIRS`: folders separated by commas. */
export function envSkillDirs(env: NodeJS.ProcessEnv): string[] {
  return (env.COPILOT_SKILLS_DIRS ?? "")
    .split(",")
    .map((dir) => dir.trim())
    .filter(Boolean);
}

/** Every folder skills are read from, in precedence order; a folder named twice is read once, at its first place. */
export function skillFolders(locations: SkillLocations): SkillFolder[] {
  const folders: SkillFolder[] = [];
  const add = (dir: string, origin: SkillOrigin) => folders.push({ dir: path.resolve(dir), origin });
  if (locations.builtinDir) add(locations.builtinDir, { source: "builtin" });
  if (locations.agentHome) {
    const homes = { agentHome: locations.agentHome, ...(locations.copilotHome ? { copilotHome: locations.copilotHome } : {}) };
    // userFolders lists the lowest precedence first (Copilot's home); here the first found wins, so ours comes first.
    for (const dir of userFolders(homes, "skills").reverse()) add(dir, { source: "user" });
  }
  const home = locations.userHome;
  if (home) for (const dir of [path.join(home, ".claude", "skills"), path.join(home, ".agents", "skills")]) add(dir, { source: "user" });
  for (const root of projectRoots(locations.cwd, locations.gitRoot)) {
    for (const sub of PROJECT_SKILL_DIRS) add(path.join(root, sub), { source: "project", trustFolder: root });
  }
  for (const plugin of locations.plugins ?? []) {
    add(plugin.dir, { source: "plugin", pluginName: plugin.pluginName, ...(plugin.pluginVersion ? { pluginVersion: plugin.pluginVersion } : {}) });
  }
  for (const dir of [...(locations.customDirs ?? []), ...(locations.clientDirs ?? [])]) add(resolveConfigured(dir, locations), { source: "custom" });
  const seen = new Set<string>();
  return folders.filter((folder) => !seen.has(folder.dir) && seen.add(folder.dir));
}

/**
 * The SKILL.md files a folder holds: its own (the folder is one skill), else one per subfolder, in name order.
 * A missing folder holds none; nothing but directory listings is done here.
 */
export function skillFilesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  if (names.includes(SKILL_FILE)) return [path.join(dir, SKILL_FILE)];
  // Joined by hand: a name holds no separator and no dot, so path.join would only normalise the folder (done
  // once here) and add separators, and at start-up (run once, before it is optimised) 200 of them cost several
  // times the listing.
  const folder = path.normalize(dir);
  const prefix = folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`;
  return names
    .filter((name) => !name.startsWith(".") && !name.includes("."))
    .sort()
    .map((name) => `${prefix}${name}${path.sep}${SKILL_FILE}`);
}
