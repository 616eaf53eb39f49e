/**
 * The bypass corpus, words after a redirection: tree-sitter-bash hangs them on the redirection (`find > /dev/null
 * . -delete` parses as a bare `find` whose redirection has three destinations; `cat <<EOF a` gives the heredoc
 * an argument), and bash gives them to the command (`cmd > f a b` runs `cmd a b > f`). Each row puts a command's
 * words after every kind of redirection and goes through the real analysis, path gate and decision: the decision
 * must be the one for the words written before it, and never an approval the words before it would not get.
 * Nothing here is executed.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { modePreset } from "../../src/core/modes.js";
import type { ModeRules } from "../../src/permissions/decide.js";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import { checkShell } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("perm-redirect-words-");
const cwd = path.join(root, "ws");
const home = path.join(root, "home");
for (const dir of [path.join(cwd, ".git"), path.join(cwd, "src"), home, path.join(root, "session")]) mkdirSync(dir, { recursive: true });
writeFileSync(path.join(cwd, "README.md"), "# readme\n");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const env = { HOME: home, PATH: "/usr/bin:/bin" };
const plan = modePreset("plan").permissionRules?.({ sessionDir: path.join(root, "session") }) as ModeRules;
const check = (command: string, flags: Partial<PermissionFlags> = {}, mode?: ModeRules) =>
  checkShell(command, { cwd, flags, env, homeDir: home, ...(mode ? { mode } : {}) });

/** Every kind of redirection the grammar reads; the heredoc forms end the line with their body. */
const REDIRECTIONS = [
  "> /dev/null",
  ">> /dev/null",
  ">| /dev/null",
  "2> /dev/null",
  "&> /dev/null",
  "&>> /dev/null",
  ">& /dev/null",
  "< README.md",
  "2>&1",
  ">&2",
  "<<< x",
  "<<EOF",
  "<<'EOF'",
  "<<-EOF",
  "<<EOF 2>/dev/null",
];
const heredoc = (redirection: string) => redirection.startsWith("<<") && !redirection.startsWith("<<<");

/** `program redirection words` and the same with the words first, as bash runs both. */
function placements(program: string, redirection: string, words: string): { after: string; before: string } {
  const body = heredoc(redirection) ? "\nline\nEOF" : "";
  return { after: `${program} ${redirection} ${words}${body}`, before: `${program} ${words} ${redirection}${body}` };
}

/** Read-only programs in the forms that write, run something or open other files: each needs a person. */
const NOT_READ_ONLY: [string, string][] = [
  ["find", ". -delete"],
  ["find", ". -exec rm {} +"],
  ["find", ". -execdir touch x +"],
  ["find", ". -ok rm {} +"],
  ["find", ". -fprint out.txt"],
  ["sed", "-i s/a/b/ README.md"],
  ["sed", "-n 'w out.txt' README.md"],
  ["sed", "'1e touch x' README.md"],
  ["awk", `'BEGIN{system("touch x")}'`],
  ["awk", `'{print > "out.txt"}' README.md`],
  ["git", "branch -D main"],
  ["git", "tag -d v1"],
  ["git", "stash drop"],
  ["git", "config user.name x"],
  ["git", "log --output=out.txt"],
  ["git", "push --force"],
  ["sort", "-o out.txt README.md"],
  ["rg", "--pre ./x foo"],
  ["less", "-o log.txt README.md"],
  ["tree", "-o out.txt"],
  ["uniq", "README.md out.txt"],
  ["xxd", "-r README.md out.txt"],
  ["hostname", "evil"],
  ["date", "-s now"],
  ["tee", "out.txt"],
  ["cp", "README.md copy.md"],
  ["rm", "-f README.md"],
  ["xargs", "rm"],
  ["env", "rm x"],
  ["bash", "-c 'rm x'"],
];

describe("bypass corpus: words after a redirection are the command's arguments", () => {
  const rows = NOT_READ_ONLY.flatMap(([program, words]) => REDIRECTIONS.map((redirection) => [program, redirection, words] as const));
  it.each(rows)("%s %s %s: asks, exactly as with the words first", async (program, redirection, words) => {
    const { after, before } = placements(program, redirection, words);
    const expected = await check(before);
    expect(expected.verdict, `${before}: ${expected.reason}`).toBe("ask");
    expect(await check(after)).toEqual(expected);
  });
});

/** Reads and writes outside the workspace, named after a redirection: the path gate asks even under --allow-all-tools. */
const OUTSIDE_FLAGS = { allowAllTools: true, disallowTempDir: true }; // the test's home is under the temp folder
const OUTSIDE: [string, string, string][] = [
  ["cat", "~/.ssh/id_rsa", "home/.ssh/id_rsa"],
  ["head", "-5 /etc/passwd", "/etc/passwd"],
  ["grep", "root /etc/shadow", "/etc/shadow"],
  ["ls", "-la ~/.aws", "home/.aws"],
  ["wc", "-l ../elsewhere.txt", "elsewhere.txt"],
  ["tail", "-n 1 /var/log/syslog", "/var/log/syslog"],
  ["diff", "README.md /etc/hosts", "/etc/hosts"],
  ["git", "--no-pager diff --no-index README.md /etc/hosts", "/etc/hosts"],
  ["cp", "README.md ~/.bashrc", "home/.bashrc"],
  ["rm", "-f ~/notes.txt", "home/notes.txt"],
  ["tee", "~/.profile", "home/.profile"],
];

describe("bypass corpus: a path outside the workspace after a redirection is still checked", () => {
  const rows = OUTSIDE.flatMap(([program, words, named]) => REDIRECTIONS.map((redirection) => [program, redirection, words, named] as const));
  it.each(rows)("%s %s %s: asks for the path under --allow-all-tools", async (program, redirection, words, named) => {
    const { after, before } = placements(program, redirection, words);
    const decision = await check(after, OUTSIDE_FLAGS);
    expect(decision.verdict, decision.reason).toBe("ask");
    if (decision.verdict === "ask") expect(decision.needs.some((need) => need.kind === "path" && need.text.endsWith(named))).toBe(true);
    expect(decision).toEqual(await check(before, OUTSIDE_FLAGS));
  });
});

/**
 * A redirection that closes a descriptor (`2>&-`) opens nothing: the one word after it is an argument. The
 * grammar cannot read two words there (an ERROR node), so the analysis asks about them, never approves them.
 */
describe("bypass corpus: words after a redirection that closes a descriptor", () => {
  const rows = NOT_READ_ONLY.flatMap(([program, words]) => ["2>&-", "<&-"].map((redirection) => [program, redirection, words] as const));
  it.each(rows)("%s %s %s: asks", async (program, redirection, words) => {
    const decision = await check(`${program} ${redirection} ${words}`);
    expect(decision.verdict, decision.reason).toBe("ask");
  });
  it.each([
    ["ls <&- src", { verdict: "allow", reason: "read-only" }],
    ["cat 2>&- README.md", { verdict: "allow", reason: "read-only" }],
    ["hostname 2>&- evil", { verdict: "ask" }],
    ["cat <&- /etc/passwd", { verdict: "ask" }],
    ["ls 2>&- src README.md", { verdict: "ask" }],
  ])("%j: %o", async (command, expected) => {
    expect(await check(command, { disallowTempDir: true })).toMatchObject(expected);
  });
});

/** A deny rule under --allow-all-tools reaches the program however its words are placed. */
const DENIED: [string, string][] = [
  ["shell(rm)", "xargs > /dev/null rm"],
  ["shell(rm)", "find > /dev/null . -exec rm {} +"],
  ["shell(rm)", "sudo 2> /dev/null rm x"],
  ["shell(rm)", "env &> /dev/null rm x"],
  ["shell(rm)", "timeout > /dev/null 5 rm x"],
  ["shell(rm)", "nice <<EOF rm x\nline\nEOF"],
  ["shell(rm)", "command 2>&1 rm x"],
  ["shell(rm)", "exec 2>&- rm x"],
  ["shell(rm)", "bash > /dev/null -c 'rm x'"],
  ["shell(rm)", "sh <<EOF -c 'rm x'\nline\nEOF"],
  ["shell(rm)", "X=1 <<EOF rm x\nline\nEOF"],
  ["shell(rm)", "X=1 Y=2 <<EOF rm x\nline\nEOF"],
  ["shell(rm)", "xargs <<EOF > /dev/null rm\nline\nEOF"],
  ["shell(rm)", "ls > /dev/null $(rm x)"],
  ["shell(rm)", "ls 2> /dev/null `rm x`"],
  ["shell(rm)", "ls < README.md <(rm x)"],
  ["shell(rm)", "cat <<EOF $(rm x)\nline\nEOF"],
  ["shell(rm)", "{ ls; } > /dev/null $(rm x)"],
  ["shell(rm)", "alias ls=rm; ls > /dev/null x"],
  ["shell(rm)", "git > /dev/null -c alias.y='!rm x' y"],
  ["shell(git branch)", "git > /dev/null branch -D main"],
  ["shell(git branch)", "git 2>&1 branch -D main"],
  ["shell(git branch)", "git <<EOF branch -D main\nline\nEOF"],
  ["shell(git push)", "git &> /dev/null push --force"],
  ["shell(git push)", "git >&2 push origin main"],
  ["shell(sed)", "find > /dev/null . -exec sed -i s/a/b/ {} +"],
];

describe("bypass corpus: a deny rule sees the words after a redirection", () => {
  it.each(DENIED)("%s denies %j under --allow-all-tools", async (rule, command) => {
    const decision = await check(command, { allowAllTools: true, denyTool: [rule] });
    expect(decision.verdict, decision.reason).toBe("deny");
    if (decision.verdict === "deny") expect(decision.rule?.text).toBe(rule);
  });
});

/** Words after the redirection of something that is not a simple command: bash refuses the line; so asks the analysis. */
const NO_COMMAND = [
  "{ ls; } > /dev/null rm x",
  "(ls) 2>&1 rm x",
  "while false; do ls; done > /dev/null rm x",
  "if true; then ls; fi < README.md rm x",
  "export A=1 > /dev/null rm x",
  "ls | cat > /dev/null; { ls; } 2>/dev/null touch x",
];

describe("bypass corpus: words after the redirection of a compound command", () => {
  it.each(NO_COMMAND)("%j asks, even under --allow-all-tools", async (command) => {
    const decision = await check(command, { allowAllTools: true });
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(decision.reason).toContain("words after a redirection belong to no command");
  });
});

/** Assignments before a heredoc that carries the command's words still take effect (`PATH=… <<EOF ls`). */
const ASSIGNMENTS_BEFORE_A_HEREDOC = ["PATH=/tmp <<EOF ls\nline\nEOF", "LD_PRELOAD=/tmp/x.so <<EOF cat README.md\nline\nEOF", "X=1 PATH=. <<EOF ls\nline\nEOF"];

describe("bypass corpus: assignments before a heredoc carrying the command", () => {
  it.each(ASSIGNMENTS_BEFORE_A_HEREDOC)("%j asks, even under --allow-all-tools", async (command) => {
    const decision = await check(command, { allowAllTools: true });
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(decision.reason).toContain("could not be analysed");
  });
});

/** The redirections written after a heredoc's start are the command's too: their files are written. */
const HEREDOC_WRITES: [string, string][] = [
  ["cat <<EOF > out.txt\nline\nEOF", "out.txt"],
  ["cat <<EOF >> out.txt\nline\nEOF", "out.txt"],
  ["cat <<EOF 2> err.txt\nline\nEOF", "err.txt"],
  ["cat <<'EOF' &> all.txt\nline\nEOF", "all.txt"],
  ["cat <<EOF < README.md > out.txt\nline\nEOF", "out.txt"],
  ["cat <<EOF > /dev/null > out.txt\nline\nEOF", "out.txt"],
];

describe("bypass corpus: a heredoc's own redirections", () => {
  it.each(HEREDOC_WRITES)("%j asks to write %s", async (command, file) => {
    const decision = await check(command);
    expect(decision.verdict, decision.reason).toBe("ask");
    if (decision.verdict === "ask") expect(decision.needs).toContainEqual(expect.objectContaining({ kind: "write", path: path.join(cwd, file) }));
  });
});

/** What stays read-only when its words follow a redirection (the fix must not cost a question). */
const STILL_READ_ONLY: [string, string][] = [
  ["ls", "-la src"],
  ["cat", "README.md"],
  ["grep", "-n readme README.md"],
  ["head", "-5 README.md"],
  ["wc", "-l README.md"],
  ["git", "log --oneline -5"],
  ["git", "branch --list"],
  ["find", ". -name '*.md'"],
  ["sed", "-n 1,5p README.md"],
  ["awk", "'{print $1}' README.md"],
];

describe("bypass corpus: read-only commands with words after a redirection stay approved", () => {
  const rows = STILL_READ_ONLY.flatMap(([program, words]) => REDIRECTIONS.map((redirection) => [program, redirection, words] as const));
  it.each(rows)("%s %s %s: allowed with no flags", async (program, redirection, words) => {
    const { after } = placements(program, redirection, words);
    expect(await check(after)).toEqual({ verdict: "allow", reason: "read-only" });
  });
});

describe("bypass corpus: plan mode reads the words after a redirection", () => {
  const rows = NOT_READ_ONLY.filter(([program]) => !["tee", "cp", "rm", "xargs", "env", "bash"].includes(program)).map(([program, words]) => [program, words]);
  it.each(rows)("%s > /dev/null %s is refused in plan mode, even under --yolo", async (program, words) => {
    const decision = await check(`${program} > /dev/null ${words}`, { allowAllTools: true, allowAllPaths: true, allowAllUrls: true }, plan);
    expect(decision.verdict, decision.reason).toBe("deny");
    expect(decision.reason).toMatch(/^In plan mode /);
  });
  it("allows the read-only ones", async () => {
    for (const [program, words] of STILL_READ_ONLY)
      expect(await check(`${program} 2>/dev/null ${words}`, {}, plan), program).toEqual({ verdict: "allow", reason: "read-only" });
  });
});
