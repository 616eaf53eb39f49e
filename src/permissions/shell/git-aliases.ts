/**
 * The git aliases a command could use: `[alias]` sections of the user's git config
 * (~/.gitconfig, $XDG_CONFIG_HOME/git/config) and of the repository's; and where the repository keeps the
 * code git runs (its git directory, core.hooksPath). Read fresh for each decision: a few small files, and an
 * alias added mid-session must not slip past the rules.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findGitRoot } from "../../util/git-root.js";

function readConfig(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Parses the `[alias]` section of a git config file (later definitions win). */
export function parseGitAliases(text: string, into: Record<string, string> = {}): Record<string, string> {
  let inAlias = false;
  for (const rawLine of text.split("\n")) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const section = /^\[\s*([^\]\s"]+)(?:\s+"[^"]*")?\s*\]$/.exec(line);
    if (section) {
      inAlias = (section[1] as string).toLowerCase() === "alias";
      continue;
    }
    if (!inAlias) continue;
    const entry = /^([A-Za-z0-9-]+)\s*=\s*(.*)$/.exec(line);
    if (!entry) continue;
    let value = (entry[2] as string).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\"/g, '"').replace(/\\\\/g, "\\");
    into[(entry[1] as string).toLowerCase()] = value;
  }
  return into;
}

export function loadGitAliases(cwd: string, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const home = env.HOME ?? os.homedir();
  const xdg = env.XDG_CONFIG_HOME ?? path.join(home, ".config");
  const aliases: Record<string, string> = {};
  parseGitAliases(readConfig(path.join(xdg, "git", "config")), aliases);
  parseGitAliases(readConfig(path.join(home, ".gitconfig")), aliases);
  const git = findGitRoot(cwd);
  if (git) {
    const common = readConfig(path.join(git.gitDir, "commondir")).trim();
    parseGitAliases(readConfig(path.join(common ? path.resolve(git.gitDir, common) : git.gitDir, "config")), aliases);
  }
  return aliases;
}

/** The last `key = value` of `[section]` in a git config file (names compared without case). */
export function gitConfigValue(text: string, section: string, key: string): string | undefined {
  let inSection = false;
  let value: string | undefined;
  for (const rawLine of text.split("\n")) {
    const line = rawLine.trim();
    const header = /^\[\s*([^\]\s"]+)(?:\s+"[^"]*")?\s*\]$/.exec(line);
    if (header) inSection = (header[1] as string).toLowerCase() === section;
    const entry = inSection ? /^([A-Za-z0-9-]+)\s*=\s*(.*)$/.exec(line) : null;
    if (entry && (entry[1] as string).toLowerCase() === key) value = (entry[2] as string).trim().replace(/^"(.*)"$/, "$1");
  }
  return value;
}

/** Where the repository at `cwd` keeps what git runs: its git directory and its hooks directory. */
export function loadGitCodeDirs(cwd: string, env: NodeJS.ProcessEnv = process.env): { gitDir: string; hooksDir: string } | undefined {
  const git = findGitRoot(cwd);
  if (!git) return undefined;
  const home = env.HOME ?? os.homedir();
  const common = readConfig(path.join(git.gitDir, "commondir")).trim();
  const commonDir = common ? path.resolve(git.gitDir, common) : git.gitDir;
  const files = [path.join(env.XDG_CONFIG_HOME ?? path.join(home, ".config"), "git", "config"), path.join(home, ".gitconfig"), path.join(commonDir, "config")];
  const configured = files
    .map((file) => gitConfigValue(readConfig(file), "core", "hookspath"))
    .filter((value) => value !== undefined)
    .at(-1);
  const expanded = configured?.startsWith("~/") ? path.join(home, configured.slice(2)) : configured;
  // A relative core.hooksPath is relative to the work tree's top, where hooks run.
  return { gitDir: commonDir, hooksDir: expanded ? path.resolve(git.root, expanded) : path.join(commonDir, "hooks") };
}
