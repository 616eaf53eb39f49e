/**
 * Plan mode changes nothing but the plan (issue 17, item 11): a shell command runs only when the analysis
 * knows it is read-only (the knowledge the read-only auto-approval uses), whatever the flags, so interpreters
 * with inline code and git commands that change state are refused even under --yolo; an MCP tool runs only
 * when its server marks it read-only. Each row goes through the real analysis, path gate and decision.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { modePreset, planFile } from "../../src/core/modes.js";
import type { ModeRules } from "../../src/permissions/decide.js";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import { checkPermission, checkShell } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("plan-ro-");
const ws = path.join(root, "ws");
const sessionDir = path.join(root, "session");
for (const dir of [path.join(ws, ".git"), sessionDir]) mkdirSync(dir, { recursive: true });
writeFileSync(path.join(ws, "README.md"), "# readme\n");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const plan = modePreset("plan").permissionRules?.({ sessionDir }) as ModeRules;
const YOLO: Partial<PermissionFlags> = { allowAllTools: true, allowAllPaths: true, allowAllUrls: true };
const inPlan = (command: string, flags: Partial<PermissionFlags> = {}) => checkShell(command, { cwd: ws, flags, mode: plan });

/** What the red team ran, and variants of each class: none is known to be read-only. */
const REFUSED = [
  // interpreters with inline code, and shells running something that is not itself read-only
  `python3 -c "open('x','w').write('y')"`,
  `python -c 'import os; os.remove("README.md")'`,
  `node -e "require('fs').writeFileSync('x','y')"`,
  `perl -e 'unlink "README.md"'`,
  `ruby -e 'File.write("x", "y")'`,
  `php -r 'file_put_contents("x", "y");'`,
  `bash -c 'touch made.txt'`,
  `sh -c "ls && rm README.md"`,
  `echo 'import os' | python3`,
  `python3 <<'EOF'\nopen('x','w')\nEOF`,
  `python3 script.py`,
  `bash build.sh`,
  `awk 'BEGIN{system("touch x")}'`,
  `awk '{print > "out.txt"}' README.md`,
  `awk '{print | "sh"}' README.md`,
  `sed -i 's/a/b/' README.md`,
  `find . -name '*.md' -delete`,
  `find . -exec touch {} +`,
  `ls | xargs rm`,
  `xargs -I{} sh -c 'echo {}' < README.md`,
  `env FOO=1 node -e 'process.exit(0)'`,
  `timeout 5 perl -e 'print 1'`,
  // git subcommands that change state
  "git branch feature",
  "git branch -D main",
  "git branch -m old new",
  "git config user.name Mallory",
  "git config --global core.editor vim",
  "git config --add alias.x status",
  "git commit -m wip",
  "git commit --allow-empty -m x",
  "git tag v1.0",
  "git stash",
  "git stash push -m x",
  "git checkout -b topic",
  "git checkout -- README.md",
  "git switch -c topic",
  "git reset --hard HEAD~1",
  "git add .",
  "git rm README.md",
  "git mv README.md docs.md",
  "git fetch origin",
  "git pull",
  "git push origin main",
  "git merge topic",
  "git rebase main",
  "git cherry-pick abc123",
  "git worktree add ../other",
  "git remote add evil https://example.com/r.git",
  "git gc",
  "git update-ref refs/heads/x HEAD",
  "git clean -fd",
  "git restore README.md",
  "git apply fix.patch",
  "git -C . commit -m x",
  "git status && git commit -am x",
  // anything else that is not known to be read-only
  "npm test",
  "make",
  "touch x",
  "echo hi > out.txt",
  "cp README.md copy.md",
];

/** Known read-only: these run in plan mode as they would anywhere. */
const ALLOWED = [
  "ls -la",
  "cat README.md | grep readme",
  "find . -name '*.md'",
  "awk '{print $1}' README.md",
  "awk -F: -v x=1 '{print $1, x}' README.md",
  "sed -n 1,5p README.md",
  "bash -c 'ls && git status'",
  "git grep readme",
  "git status",
  "git log --oneline -5",
  "git diff HEAD~1",
  "git show HEAD",
  "git branch",
  "git branch --list",
  "git branch -a",
  "git branch -r",
  "git config --get user.name",
  "git config --list",
  "git rev-parse HEAD",
  "git ls-files",
  "git blame README.md",
  "git tag -l",
  "git remote -v",
  "git stash list",
];

describe("plan mode runs only what is known to be read-only", () => {
  it.each(REFUSED)("%j is refused, even under --yolo, saying it is plan mode and how to leave it", async (command) => {
    for (const flags of [{}, YOLO, { allowTool: ["shell"] }]) {
      const decision = await inPlan(command, flags);
      expect(decision.verdict, `${JSON.stringify(flags)}: ${decision.reason}`).toBe("deny");
      expect(decision.reason).toMatch(/^In plan mode /);
      expect(decision.reason).toContain("exit_plan_mode");
    }
  });

  it.each(ALLOWED)("%j runs without asking", async (command) => {
    expect(await inPlan(command)).toEqual({ verdict: "allow", reason: "read-only" });
    expect((await inPlan(command, YOLO)).verdict).toBe("allow");
  });

  it("names what is not read-only: the subcommand, the inline code", async () => {
    expect((await inPlan("git commit -m x", YOLO)).reason).toContain("`git commit` is not known to be read-only");
    expect((await inPlan(`python3 -c "print(1)"`, YOLO)).reason).toContain("python3 is given code inline");
  });

  it("the plan file is still the mode's own: a file tool writes it without asking, another file is refused", async () => {
    const write = (fileName: string) => checkPermission({ kind: "write", fileName, diff: "", intention: "x" }, "create", { cwd: ws, mode: plan });
    expect(await write(planFile(sessionDir))).toEqual({ verdict: "allow", reason: "plan mode writes its own file" });
    const other = await write(path.join(ws, "src.ts"));
    expect(other.verdict).toBe("deny");
    expect(other.reason).toContain("In plan mode nothing may be changed");
    // A read-only command that writes only the plan goes through the usual rules (here: --allow-all-tools).
    expect((await inPlan(`cat README.md > ${planFile(sessionDir)}`, YOLO)).verdict).toBe("allow");
  });

  it("an MCP tool runs only when its server marks it read-only (readOnlyHint)", async () => {
    const mcp = (readOnly: boolean) =>
      checkPermission({ kind: "mcp", serverName: "db", toolName: readOnly ? "query" : "drop", toolTitle: "t", readOnly }, "db-x", {
        cwd: ws,
        flags: YOLO,
        mode: plan,
      });
    const refused = await mcp(false);
    expect(refused.verdict).toBe("deny");
    expect(refused.reason).toMatch(/^In plan mode an MCP tool runs only when its server marks it read-only \(readOnlyHint\), and db's drop is not/);
    expect((await mcp(true)).verdict).toBe("allow");
    // Outside plan mode the flag decides as before.
    const outside = await checkPermission({ kind: "mcp", serverName: "db", toolName: "drop", toolTitle: "t", readOnly: false }, "db-drop", {
      cwd: ws,
      flags: YOLO,
    });
    expect(outside.verdict).toBe("allow");
  });

  it("deny rules still come first", async () => {
    const decision = await inPlan("git status", { denyTool: ["shell(git status)"] });
    expect(decision.verdict).toBe("deny");
    expect(decision.reason).toContain("shell(git status)");
  });
});
