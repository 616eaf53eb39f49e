/**
 * Bypasses the corpus found in the first version of the shell analysis and path gate, each with what the
 * engine must decide and why; all fixed, and kept here so none comes back.
 * Decisions only; nothing is executed. Where a case says "verified", the behaviour of the real program was
 * checked by hand with a harmless marker command in a scratch directory.
 */
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkShell, type CheckOptions } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("perm-gaps-");
const cwd = path.join(root, "ws");
const home = path.join(root, "home");
mkdirSync(path.join(cwd, ".git"), { recursive: true });
mkdirSync(home, { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));

const env = { HOME: home, PATH: "/usr/bin:/bin" };
type Flags = CheckOptions["flags"];
const NONE: Flags = {};
const GIT_ONLY: Flags = { allowTool: ["shell(git:*)"] };
const DENY_RM: Flags = { denyTool: ["shell(rm)"], allowAllTools: true };
const denyOnly = (rule: string): Flags => ({ denyTool: [rule], allowAllTools: true });

interface Gap {
  command: string;
  flags: Flags;
  expected: "deny" | "not allow" | "allow";
  why: string;
}

const FOUND_BYPASSES: Gap[] = [
  // ── a shell reading its script from somewhere the analysis does not look (wrappers.ts unwrapShell treats a shell
  //    with no script argument as transparent, and analyze.ts only parses heredocs whose own program is a shell) ──
  { command: "git status | sh", flags: GIT_ONLY, expected: "not allow", why: "a shell reading its script from a pipe counts as read-only" },
  { command: "cat script.sh | sh", flags: NONE, expected: "not allow", why: "a shell reading its script from a pipe counts as read-only" },
  { command: "cat <<EOF | sh\nrm x\nEOF", flags: NONE, expected: "not allow", why: "a shell reading its script from a pipe counts as read-only" },
  { command: "cat x | bash -s", flags: NONE, expected: "not allow", why: "bash -s reads its script from stdin" },
  { command: "sh < script.sh", flags: NONE, expected: "not allow", why: "a shell reading its script from a file counts as read-only" },
  { command: "bash <<< 'rm x'", flags: NONE, expected: "not allow", why: "a here-string fed to a shell is not parsed (heredocs are)" },
  { command: "bash <<< 'rm x'", flags: DENY_RM, expected: "deny", why: "a here-string fed to a shell is not parsed (heredocs are)" },
  {
    command: "env sh <<EOF\nrm x\nEOF",
    flags: NONE,
    expected: "not allow",
    why: "a heredoc fed to a wrapped shell is not parsed, and the shell counts as read-only",
  },
  { command: "nohup bash <<EOF\nrm x\nEOF", flags: DENY_RM, expected: "deny", why: "a heredoc fed to a wrapped shell is not parsed" },
  { command: "sudo sh <<EOF\nrm x\nEOF", flags: DENY_RM, expected: "deny", why: "a heredoc fed to a wrapped shell is not parsed" },
  { command: "bash -c -- 'rm x'", flags: DENY_RM, expected: "deny", why: "`--` is taken for the script; bash runs the next word (verified)" },
  {
    command: "bash -O extglob -c 'rm x'",
    flags: DENY_RM,
    expected: "deny",
    why: "-O takes a value; `extglob` is taken for a script file (verified that bash runs -c)",
  },
  // ── variables that choose the program: env's own VAR=value words skip DANGEROUS_VARIABLES (analyze.ts checks only
  //    assignments written before the command) ──
  { command: "env PATH=/tmp ls", flags: NONE, expected: "not allow", why: "env's VAR=value arguments skip the dangerous-variable check" },
  {
    command: "env LD_PRELOAD=/tmp/evil.so cat README.md",
    flags: NONE,
    expected: "not allow",
    why: "env's VAR=value arguments skip the dangerous-variable check",
  },
  { command: "env PATH=/tmp git status", flags: GIT_ONLY, expected: "not allow", why: "env's VAR=value arguments skip the dangerous-variable check" },
  { command: "env GIT_EXTERNAL_DIFF=rm git diff", flags: NONE, expected: "not allow", why: "git runs $GIT_EXTERNAL_DIFF (verified)" },
  // ── programs git runs from options and configuration (git.ts follows aliases, rebase -x, bisect run, … but not
  //    these); under shell(git:*) the program never becomes a segment of its own ──
  { command: "GIT_EXTERNAL_DIFF=rm git diff", flags: GIT_ONLY, expected: "not allow", why: "git runs $GIT_EXTERNAL_DIFF (verified)" },
  { command: "git -c diff.external=rm diff", flags: GIT_ONLY, expected: "not allow", why: "git runs diff.external (verified)" },
  { command: "git -c core.fsmonitor='rm x' status", flags: GIT_ONLY, expected: "not allow", why: "git status runs core.fsmonitor (verified)" },
  {
    command: "git -c core.pager='rm x' log",
    flags: GIT_ONLY,
    expected: "not allow",
    why: "the pager is a program git runs (with a terminal, which the bash tool lacks)",
  },
  { command: "git -c core.sshCommand='rm x' fetch", flags: GIT_ONLY, expected: "not allow", why: "git runs core.sshCommand for ssh remotes" },
  {
    command: "git clone --upload-pack='rm x' ../src dst",
    flags: GIT_ONLY,
    expected: "not allow",
    why: "for a local source git runs --upload-pack through the shell (verified)",
  },
  {
    command: "git fetch --upload-pack='rm x' origin",
    flags: GIT_ONLY,
    expected: "not allow",
    why: "for a local remote git runs --upload-pack through the shell",
  },
  { command: "git rebase '-xrm x' main", flags: DENY_RM, expected: "deny", why: "the stuck form -x<cmd> of rebase --exec is not followed" },
  // ── read-only classification (read-only.ts) ──
  { command: "git stash", flags: NONE, expected: "not allow", why: "`git stash` alone is `git stash push`, which rewrites the working tree" },
  {
    command: "git reflog expire --expire=now --all",
    flags: NONE,
    expected: "not allow",
    why: "reflog is listed as read-only whatever follows; expire/delete drop history",
  },
  {
    command: "git reflog delete HEAD@{1}",
    flags: NONE,
    expected: "not allow",
    why: "reflog is listed as read-only whatever follows; expire/delete drop history",
  },
  { command: "go env -w GOFLAGS=-x", flags: NONE, expected: "not allow", why: "`go env -w` writes go's config file" },
  { command: "sort -uo out README.md", flags: NONE, expected: "not allow", why: "WRITING_OPTIONS only sees -o at the start of a word, not in -uo" },
  // The subcommand is the first word not starting with `-`, so a global option's value is taken for it.
  {
    command: "npm --loglevel info install evil-pkg",
    flags: NONE,
    expected: "not allow",
    why: "`info` is --loglevel's value; npm installs (and runs install scripts)",
  },
  { command: "docker -l info rm -f db", flags: NONE, expected: "not allow", why: "`info` is -l's value; docker removes a container" },
  { command: "kubectl -n get delete pods --all", flags: NONE, expected: "not allow", why: "`get` is -n's value; kubectl deletes pods" },
  { command: "pip --log list install evil", flags: NONE, expected: "not allow", why: "`list` is --log's value; pip installs" },
  // ── deny rules with a subcommand match argv word by word (rules.ts shellRuleMatches), so an option before the
  //    subcommand slips past them ──
  {
    command: "kubectl -n prod delete pod api",
    flags: denyOnly("shell(kubectl delete)"),
    expected: "deny",
    why: "deny matches argv[1] === 'delete'; -n prod comes first",
  },
  { command: "npm -g install evil-pkg", flags: denyOnly("shell(npm install)"), expected: "deny", why: "deny matches argv[1] === 'install'; -g comes first" },
  { command: "docker --debug run alpine", flags: denyOnly("shell(docker run)"), expected: "deny", why: "deny matches argv[1] === 'run'; --debug comes first" },
  // ── programs that run a command but are not unwrapped (wrappers.ts WRAPPERS); an open list ──
  { command: "coproc rm x", flags: DENY_RM, expected: "deny", why: "coproc is taken for a program name; the command it runs is not a segment" },
  { command: "coproc R { rm x; }", flags: DENY_RM, expected: "deny", why: "coproc is taken for a program name; the command it runs is not a segment" },
  { command: "trap 'rm x' EXIT", flags: DENY_RM, expected: "deny", why: "trap's first argument is a script the shell runs" },
  { command: "busybox rm x", flags: DENY_RM, expected: "deny", why: "busybox runs its first operand as the program" },
  { command: "script -qc 'rm x' /dev/null", flags: DENY_RM, expected: "deny", why: "script -c hands its argument to a shell" },
  { command: "parallel rm ::: x", flags: DENY_RM, expected: "deny", why: "GNU parallel runs its command like xargs" },
  { command: "runuser -l me -c 'rm x'", flags: DENY_RM, expected: "deny", why: "runuser -c hands its argument to a shell (only su's -c is followed)" },
  { command: "fakeroot rm x", flags: DENY_RM, expected: "deny", why: "fakeroot runs its operands as a command" },
  { command: "taskset -c 0 rm x", flags: DENY_RM, expected: "deny", why: "taskset runs its operands as a command" },
  { command: "unshare -r rm x", flags: DENY_RM, expected: "deny", why: "unshare runs its operands as a command" },
  // ── too strict rather than too lax: read-only.ts sedScriptReadOnly destructures the wrong capture group of its
  //    s/// pattern (the address part has a nested group), so every sed substitution is asked about ──
  { command: "sed 's/a/b/g' README.md", flags: NONE, expected: "allow", why: "a sed substitution without w/e flags only prints" },
  { command: "sed -n 's/a/b/p' README.md", flags: NONE, expected: "allow", why: "a sed substitution without w/e flags only prints" },
];

describe("bypass corpus: bypasses found in the first version, now refused", () => {
  it("lists them", () => {
    const lines = FOUND_BYPASSES.map((gap) => `  ${JSON.stringify(gap.command)} with ${JSON.stringify(gap.flags)} should ${gap.expected}: ${gap.why}`);
    console.log(`FOUND_BYPASSES (${FOUND_BYPASSES.length}):\n${lines.join("\n")}`);
    expect(new Set(FOUND_BYPASSES.map((gap) => `${gap.command} ${JSON.stringify(gap.flags)}`)).size).toBe(FOUND_BYPASSES.length);
  });

  it.each(FOUND_BYPASSES)("$expected: $command", async ({ command, flags, expected }) => {
    const decision = await checkShell(command, { cwd, flags, env, homeDir: home });
    if (expected === "not allow") expect(decision.verdict, decision.reason).not.toBe("allow");
    else expect(decision.verdict, decision.reason).toBe(expected);
  });
});
