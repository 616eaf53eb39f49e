/**
 * The git aliases a command could use: `[alias]` sections of the user's git config
 * (~/.gitconfig, $XDG_CONFIG_HOME/git/config) and of the repository's. Read fresh for each decision:
 * a few small files, and an alias added mid-session must not slip past the rules.
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
