/**
 * What the gate cannot check against its rules: commands whose effect cannot be seen (the shell analysis's
 * `opaque` list) and writes to git's executable configuration, which turn into code the next time an allowed
 * `git status` runs (core.fsmonitor, hooks, filter and diff drivers, submodule update commands). Neither is
 * approved by an allow rule; --allow-all-tools approves them only when no deny rule is in force, since a
 * deny rule could not be checked against what they do.
 */
import path from "node:path";
import type { PermissionFacts } from "./facts.js";
import type { Rule } from "./rules.js";

/** Inside a git directory: the files and folders whose contents git runs or that point it at other code. */
const GIT_DIR_ENTRIES = new Set(["config", "config.worktree", "hooks", "info", "commondir", "modules", "worktrees"]);
/** Files in the work tree (or home) that configure programs git runs. */
const GIT_FILES = new Set([".gitmodules", ".gitattributes", ".gitconfig"]);

/** Whether a path inside a git directory (as its components there) is the directory itself or what git runs. */
function inGitDir(rest: readonly string[]): boolean {
  if (rest.length === 0) return true;
  return GIT_DIR_ENTRIES.has(rest[0] as string) && (rest[0] !== "info" || rest.length === 1 || rest[1] === "attributes");
}

/** Why a write to this path becomes code git runs, or undefined. `git`: the repository's own directories. */
export function gitExecutableConfig(resolved: string, git?: PermissionFacts["git"]): string | undefined {
  const within = (dir: string) => resolved === dir || resolved.startsWith(dir + path.sep);
  if (git && within(git.hooksDir)) return `${resolved} is in git's hooks directory (${git.hooksDir})`;
  if (git && within(git.gitDir) && inGitDir(path.relative(git.gitDir, resolved).split(path.sep).filter(Boolean)))
    return `${resolved} is git configuration that can run programs`;
  const parts = resolved.split(path.sep).filter((part) => part !== "");
  const name = parts.at(-1) ?? "";
  if (GIT_FILES.has(name)) return `${name} configures programs git runs`;
  const gitDir = parts.lastIndexOf(".git");
  const rest = parts.slice(gitDir + 1);
  if (gitDir >= 0 && inGitDir(rest))
    return rest.length === 0
      ? ".git itself decides which configuration and hooks git uses"
      : `.git/${rest.join("/")} is git configuration that can run programs`;
  const config = parts.lastIndexOf(".config");
  if (config >= 0 && parts[config + 1] === "git" && ["config", "attributes"].includes(parts[config + 2] ?? ""))
    return `${parts.slice(config).join("/")} configures programs git runs`;
  return undefined;
}

/** Every reason the call's effect cannot be checked. */
export function opaqueReasons(facts: PermissionFacts): string[] {
  const reasons = [...(facts.shell?.analysis.opaque ?? [])];
  for (const mention of facts.paths) {
    if (mention.access === "read" || mention.resolved === undefined) continue;
    const why = gitExecutableConfig(mention.resolved, facts.git);
    if (why && !reasons.some((reason) => reason.startsWith(`writing ${mention.resolved}`))) reasons.push(`writing ${mention.resolved}: ${why}`);
  }
  // tar -x, unzip or patch -p1 above the git directory can write its hooks and config among unnamed files.
  const git = facts.git;
  for (const dir of facts.shell?.unnamedWriteDirs ?? []) {
    const holds = (inner: string) => inner === dir || inner.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
    if (git && (holds(git.gitDir) || holds(git.hooksDir)))
      reasons.push(`it writes files it does not name under ${dir}, which holds git's directory (hooks and configuration git runs)`);
  }
  return reasons;
}

/** Deny rules that an opaque command could get round: what it runs, writes, reads or fetches is not known. */
export function denyRuleInForce(rules: readonly Rule[]): Rule | undefined {
  return rules.find((rule) => rule.action === "deny" && rule.target.kind !== "named");
}
