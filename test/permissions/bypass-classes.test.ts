/**
 * The corpus, extended with the classes of attempts written outside this team (22 of 79 got through): writes
 * that become code (git's executable configuration), write rules reaching past the workspace, programs that
 * write files (cp, mv, install, patch, …), and commands whose effect cannot be seen (inline interpreter code,
 * sed's `e`, tar's and ssh's command options, git's ext:: transport, sourcing generated code). Several variants
 * per class, each judged by the decision function; nothing here is executed.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PermissionRequest } from "../../src/protocol/events/index.js";
import type { Decision } from "../../src/permissions/decide.js";
import { checkPermission, checkShell, type CheckOptions } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("perm-classes-");
const ws = path.join(root, "ws");
const outside = path.join(root, "outside");
const home = path.join(root, "home");
for (const dir of [path.join(ws, ".git", "hooks"), path.join(ws, "src"), path.join(ws, "docs"), path.join(outside, "src"), home])
  mkdirSync(dir, { recursive: true });
writeFileSync(path.join(ws, "README.md"), "# readme\n");
writeFileSync(path.join(ws, "src", "a.ts"), "export {};\n");
symlinkSync(path.join(outside, "src"), path.join(ws, "srclink")); // a directory link out of the workspace
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Flags = CheckOptions["flags"];
// The fixture lives in the temp dir, so the temp dir is not an allowed root here (its sibling would be inside).
const env = { HOME: home, PATH: "/usr/bin:/bin" };
const options = (flags: Flags, approvals?: CheckOptions["approvals"]): CheckOptions => ({
  cwd: ws,
  flags: { disallowTempDir: true, ...flags },
  env,
  homeDir: home,
  ...(approvals ? { approvals } : {}),
});
const sh = (command: string, flags: Flags = {}) => checkShell(command, options(flags));
const tool = (request: PermissionRequest, name: string, flags: Flags = {}, approvals?: CheckOptions["approvals"]) =>
  checkPermission(request, name, options(flags, approvals));
const fileWrite = (file: string, name: "create" | "edit", flags: Flags = {}, approvals?: CheckOptions["approvals"]) =>
  tool({ kind: "write", fileName: path.isAbsolute(file) ? file : path.join(ws, file), diff: "", intention: "x" }, name, flags, approvals);
const view = (file: string, flags: Flags = {}) => tool({ kind: "read", path: file, intention: "x" }, "view", flags);

const DENY_RM: Flags = { denyTool: ["shell(rm)"], allowAllTools: true };
const ALL: Flags = { allowAllTools: true };
const hasConfirm = (decision: Decision) => decision.verdict === "ask" && decision.needs.some((need) => need.kind === "confirm");

describe("writes that become code: git's executable configuration always asks, whatever the write rules", () => {
  const FILES: [file: string, tool: "create" | "edit"][] = [
    [".git/config", "edit"],
    [".git/config", "create"],
    [".git/config.worktree", "edit"],
    [".git/hooks/pre-commit", "create"],
    [".git/hooks/post-checkout", "edit"],
    [".git/hooks/fsmonitor-watchman", "create"],
    [".git/info/attributes", "create"],
    [".git/modules/lib/config", "edit"],
    [".git/modules/lib/hooks/pre-push", "create"],
    [".git/worktrees/wt/config.worktree", "create"],
    [".git", "create"],
    [".gitattributes", "edit"],
    [".gitattributes", "create"],
    ["src/.gitattributes", "create"],
    [".gitmodules", "edit"],
  ];
  it.each(FILES)("%s (%s) asks under --allow-tool write", async (file, name) => {
    const decision = await fileWrite(file, name, { allowTool: ["write"] });
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(hasConfirm(decision), decision.reason).toBe(true);
  });
  it.each(FILES)("%s (%s) asks under write(.git/**), write(%s) and an earlier yes to writing that very file", async (file, name) => {
    for (const rule of [".git/**", file, path.basename(file)])
      expect((await fileWrite(file, name, { allowTool: [`write(${rule})`] })).verdict, rule).toBe("ask");
    expect((await fileWrite(file, name, {}, { writes: new Set([path.join(ws, file)]) })).verdict).toBe("ask");
  });
  it.each(FILES)("%s (%s) asks under --allow-all-tools while a deny rule is in force", async (file, name) => {
    const decision = await fileWrite(file, name, DENY_RM);
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(decision.reason).toContain("--allow-all-tools does not approve it");
  });

  const SHELL: [command: string, allow: string[]][] = [
    ["echo '[core] fsmonitor = touch marker' >> .git/config", ["write", "shell(echo)"]],
    ["printf '#!/bin/sh\\ntouch marker\\n' > .git/hooks/pre-commit", ["write", "shell(printf)"]],
    ["printf x | tee .git/hooks/pre-commit", ["write", "shell(printf)", "shell(tee)"]],
    ["printf x | tee -a .gitattributes", ["write", "shell(printf)", "shell(tee)"]],
    ["cp hook.sh .git/hooks/pre-commit", ["write", "shell(cp)"]],
    ["cp -t .git/hooks pre-commit", ["write", "shell(cp)"]],
    ["mv evil.cfg .git/config", ["write", "shell(mv)"]],
    ["ln -s ../../hook.sh .git/hooks/pre-push", ["write", "shell(ln)"]],
    ["install -m 755 hook.sh .git/hooks/post-merge", ["write", "shell(install)"]],
    ["sed -i 's/x/y/' .git/config", ["write", "shell(sed)"]],
    ["dd of=.gitmodules if=evil", ["write", "shell(dd)"]],
    ["echo '* filter=x' > src/.gitattributes", ["write", "shell(echo)"]],
    ["cd .git && echo x >> config", ["write", "shell(echo)"]],
    ["cd src && echo '* diff=x' >> ../.gitattributes", ["write", "shell(echo)"]],
  ];
  it.each(SHELL)("%j asks under %j", async (command, allow) => {
    const decision = await sh(command, { allowTool: allow });
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(hasConfirm(decision), decision.reason).toBe(true);
    expect((await sh(command, DENY_RM)).verdict).toBe("ask");
  });

  it("core.hooksPath moves the hooks: writes there ask too, in a worktree whose git directory is elsewhere", async () => {
    const repo = path.join(root, "hooks-repo");
    const gitDir = path.join(root, "elsewhere.git");
    mkdirSync(path.join(repo, ".githooks"), { recursive: true });
    mkdirSync(gitDir, { recursive: true });
    writeFileSync(path.join(repo, ".git"), `gitdir: ${gitDir}\n`);
    writeFileSync(path.join(gitDir, "config"), "[core]\n\tbare = false\n[core]\n\thooksPath = .githooks\n");
    const inRepo = (file: string, flags: Flags) =>
      checkPermission({ kind: "write", fileName: path.join(repo, file), diff: "", intention: "x" }, "create", {
        cwd: repo,
        flags: { disallowTempDir: true, ...flags },
        env,
        homeDir: home,
      });
    expect((await inRepo(".githooks/pre-commit", { allowTool: ["write"] })).verdict).toBe("ask");
    expect((await inRepo(".githooks/pre-commit", DENY_RM)).verdict).toBe("ask");
    expect((await inRepo("src/a.ts", { allowTool: ["write"] })).verdict).toBe("allow");
    const inGitDir = await checkPermission({ kind: "write", fileName: path.join(gitDir, "config"), diff: "", intention: "x" }, "edit", {
      cwd: repo,
      flags: { allowTool: ["write"], addDir: [gitDir] },
      env,
      homeDir: home,
    });
    expect(inGitDir.verdict, inGitDir.reason).toBe("ask");
    expect(inGitDir.reason).toContain("is git configuration that can run programs");
    const shell = await checkShell("cp hook .githooks/post-checkout", { cwd: repo, flags: { allowTool: ["write", "shell(cp)"] }, env, homeDir: home });
    expect(shell.verdict, shell.reason).toBe("ask");
  });

  it.each([
    ["tar -xf a.tar", "shell(tar)"],
    ["tar xzf a.tgz", "shell(tar)"],
    ["tar --extract --file=a.tar", "shell(tar)"],
    ["unzip a.zip", "shell(unzip)"],
    ["patch -p1 < fix.diff", "shell(patch)"],
    ["git diff | patch -p1", "shell(patch)"],
  ])("%j writes files it does not name above .git: asks under write + %s", async (command, rule) => {
    const decision = await sh(command, { allowTool: ["write", rule, "shell(git:*)"] });
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(hasConfirm(decision), decision.reason).toBe(true);
  });

  it.each([
    ["tar -xf a.tar -C src", "shell(tar)"],
    ["unzip a.zip -d src", "shell(unzip)"],
    ["patch -d src -p1 < fix.diff", "shell(patch)"],
  ])("%j writes unnamed files only under src/: allowed by write(src/**) + %s", async (command, rule) => {
    expect((await sh(command, { allowTool: ["write(src/**)", rule] })).verdict).toBe("allow");
  });

  it("--allow-all-tools with no deny rule keeps meaning all", async () => {
    expect((await sh("patch -p1 < fix.diff", ALL)).verdict).toBe("allow");
    expect((await sh("tar xzf a.tgz", ALL)).verdict).toBe("allow");
    expect((await fileWrite(".git/config", "edit", ALL)).verdict).toBe("allow");
    expect((await sh("cp hook.sh .git/hooks/pre-commit", ALL)).verdict).toBe("allow");
  });

  it.each([".gitignore", ".github/workflows/ci.yml", "src/git/config", ".git-blame-ignore-revs", "docs/.git-notes"])(
    "%s is ordinary: write allows it",
    async (file) => {
      expect((await fileWrite(file, "create", { allowTool: ["write"] })).verdict).toBe("allow");
    },
  );
});

describe("a write rule never lifts the path gate; path rules are relative to the workspace", () => {
  const NOT_ALLOWED: [name: string, decide: () => Promise<Decision>][] = [
    ["create in a src/ outside the workspace (absolute)", () => fileWrite(path.join(outside, "src", "a.ts"), "create", { allowTool: ["write(src/**)"] })],
    ["create in a src/ outside the workspace (relative)", () => fileWrite("../outside/src/a.ts", "create", { allowTool: ["write(src/**)"] })],
    ["edit through a link to an outside src/", () => fileWrite("srclink/a.ts", "edit", { allowTool: ["write(src/**)"] })],
    ["create in a src/ deeper in the workspace", () => fileWrite("docs/src/a.ts", "create", { allowTool: ["write(src/**)"] })],
    ["redirection into an outside src/", () => sh("echo x > ../outside/src/a.ts", { allowTool: ["write(src/**)"] })],
    ["tee into an outside src/", () => sh("tee ../outside/src/a.ts < README.md", { allowTool: ["write(src/**)", "shell(tee)"] })],
    ["write(*.ts) outside", () => fileWrite(path.join(outside, "x.ts"), "create", { allowTool: ["write(*.ts)"] })],
    ["write(**/*.ts) outside", () => fileWrite(path.join(outside, "src", "x.ts"), "create", { allowTool: ["write(**/*.ts)"] })],
    ["write(.env) outside", () => fileWrite(path.join(outside, ".env"), "create", { allowTool: ["write(.env)"] })],
    [
      "write(/abs) outside still asks about the path",
      () => fileWrite(path.join(outside, "src", "a.ts"), "create", { allowTool: [`write(${path.join(outside, "src", "a.ts")})`] }),
    ],
    ["read(src/**) outside", () => view(path.join(outside, "src", "a.ts"), { allowTool: ["read(src/**)"] })],
    ["read(/abs) outside", () => view(path.join(outside, "src", "a.ts"), { allowTool: [`read(${path.join(outside, "src", "a.ts")})`] })],
  ];
  it.each(NOT_ALLOWED)("%s asks", async (_name, decide) => {
    const decision = await decide();
    expect(decision.verdict, decision.reason).toBe("ask");
  });

  it.each([
    ["src/a.ts", "write(src/**)"],
    ["src/deep/er/a.ts", "write(src/**)"],
    ["src/x.ts", "write(src/*.ts)"],
    ["docs/src/x.ts", "write(**/*.ts)"],
    ["docs/.env", "write(.env)"],
  ])("%s inside is allowed by %s", async (file, rule) => {
    expect((await fileWrite(file, "create", { allowTool: [rule] })).verdict).toBe("allow");
  });

  it("--add-dir lets the outside directory in; the workspace-relative rule still does not reach it", async () => {
    const decision = await fileWrite(path.join(outside, "src", "a.ts"), "create", { allowTool: ["write(src/**)"], addDir: [outside] });
    expect(decision.verdict === "ask" && decision.needs.map((need) => need.kind)).toEqual(["write"]);
    expect(
      (await fileWrite(path.join(outside, "src", "a.ts"), "create", { allowTool: [`write(${path.join(outside, "src", "a.ts")})`], addDir: [outside] })).verdict,
    ).toBe("allow");
  });
});

describe("programs that write files: every destination goes through the write rules and the path gate", () => {
  const SRC_AND = (program: string): Flags => ({ allowTool: ["write(src/**)", `shell(${program})`] });
  const OUTSIDE_SRC: [command: string, program: string][] = [
    ["cp README.md docs/x.md", "cp"],
    ["cp -t docs README.md", "cp"],
    ["cp -tdocs README.md", "cp"],
    ["cp --target-directory=docs README.md", "cp"],
    ["cp --target-directory docs README.md", "cp"],
    ["cp -r src docs/copy", "cp"],
    ["cp -a src/a.ts ../outside/a.ts", "cp"],
    ["mv src/a.ts docs/a.ts", "mv"],
    ["mv -t docs src/a.ts", "mv"],
    ["mv --target-directory=../outside src/a.ts", "mv"],
    ["install -m 644 src/a.ts docs/a.ts", "install"],
    ["install -D src/a.ts bin/a.ts", "install"],
    ["install -t docs src/a.ts", "install"],
    ["install -d docs/new", "install"],
    ["ln -s src/a.ts docs/a.ts", "ln"],
    ["ln -t docs src/a.ts", "ln"],
    ["patch -p1 < fix.diff", "patch"],
    ["patch -p1 -i fix.diff", "patch"],
    ["patch docs/a.md fix.diff", "patch"],
    ["patch -o docs/out.md src/a.ts fix.diff", "patch"],
    ["patch --output=docs/out.md src/a.ts fix.diff", "patch"],
    ["patch -d docs -p1 < fix.diff", "patch"],
    ["rsync -a src/ docs/", "rsync"],
    ["sort -o docs/out src/a.ts", "sort"],
    ["sort -uo docs/out src/a.ts", "sort"],
    ["sed -i 's/a/b/' docs/a.md", "sed"],
    ["sed -i.bak -e 's/a/b/' README.md", "sed"],
    ["uniq src/a.ts docs/out", "uniq"],
    ["tar -czf docs/src.tgz src", "tar"],
    ["tar czf docs/src.tgz src", "tar"],
    ["tee docs/x < src/a.ts", "tee"],
    ["dd if=src/a.ts of=docs/x", "dd"],
    [`GIT_TRACE_SETUP=${path.join(ws, "docs", "trace")} git status`, "git:*"],
    [`GIT_TRACE_PACKET=${path.join(ws, "docs", "trace")} git status`, "git:*"],
    [`env GIT_TRACE2_EVENT=${path.join(ws, "docs", "trace")} git status`, "git:*"],
    [`export GIT_TRACE=${path.join(ws, "docs", "trace")}; git status`, "git:*"],
    ["git archive -o docs/src.tar HEAD", "git:*"],
    ["git format-patch -o docs HEAD~3", "git:*"],
    ["git bundle create docs/all.bundle --all", "git:*"],
    ["git log --output=docs/log.txt", "git:*"],
    ["git diff --output docs/d.patch", "git:*"],
    ["git clone https://example.com/r.git docs/r", "git:*"],
    ["git config -f docs/x.cfg a.b c", "git:*"],
    ["split -l 10 src/a.ts docs/part-", "split"],
    ["csplit -f docs/part src/a.ts 5", "csplit"],
    ["sort src/a.ts | sponge docs/a.md", "sponge"],
    ["ed docs/a.md < script.ed", "ed"],
    ["cpio -id < a.cpio", "cpio"],
    ["7z x a.7z", "7z"],
    ["openssl enc -in src/a.ts -out docs/a.enc -k x", "openssl"],
    ["gpg -o docs/a.gpg -c src/a.ts", "gpg"],
    ["curl -o docs/x https://example.com/x", "curl"],
    ["curl --output-dir docs -O https://example.com/x", "curl"],
    ["wget -O docs/x https://example.com/x", "wget"],
  ];
  it.each(OUTSIDE_SRC)("%j is not approved by write(src/**) + shell(%s)", async (command, program) => {
    const decision = await sh(command, {
      allowTool: ["write(src/**)", `shell(${program})`, "shell(export)", "shell(env)", "shell(sort)"],
      allowUrl: ["example.com"],
    });
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(decision.verdict === "ask" && decision.needs.some((need) => need.kind === "write" || need.kind === "path"), decision.reason).toBe(true);
  });

  it.each([
    ["cp README.md src/readme.md", "cp"],
    ["cp -t src README.md", "cp"],
    ["cp --target-directory=src README.md", "cp"],
    ["mv docs/a.md src/a.md", "mv"],
    ["install -m 644 README.md src/readme.md", "install"],
    ["patch src/a.ts fix.diff", "patch"],
    ["patch -o src/b.ts src/a.ts fix.diff", "patch"],
    ["sed -i 's/a/b/' src/a.ts", "sed"],
    ["sort -o src/sorted.ts src/a.ts", "sort"],
    ["tar -czf src/all.tgz docs", "tar"],
    ["git archive -o src/snapshot.tar HEAD", "git:*"],
    ["split -l 10 README.md src/part-", "split"],
  ])("%j writes only into src/: allowed by write(src/**) + shell(%s)", async (command, program) => {
    const decision = await sh(command, SRC_AND(program));
    expect(decision.verdict, decision.reason).toBe("allow");
  });

  it.each(["cp src/a.ts ../outside/a.ts", "mv -t ../outside src/a.ts", "install src/a.ts /etc/x", `GIT_TRACE=${path.join(outside, "t")} git status`])(
    "%j writes outside: the path gate asks even under --allow-all-tools",
    async (command) => {
      const decision = await sh(command, ALL);
      expect(decision.verdict === "ask" && decision.needs.map((need) => need.kind), decision.reason).toContain("path");
    },
  );

  it("a deny write rule reaches every destination form", async () => {
    for (const command of [
      "cp -t config README.md",
      "cp --target-directory=config x",
      "install x config/.env",
      "patch config/.env fix.diff",
      "mv x config/.env",
      "sort -o .env x",
      "curl -o .env https://example.com",
    ]) {
      const decision = await sh(command, { denyTool: ["write(.env)", "write(config/**)"], allowAllTools: true, allowAllUrls: true });
      expect(decision.verdict, command).toBe("deny");
    }
  });
});

/** Resolved: the analysis sees through them, so deny rules apply as written. */
const RESOLVED_UNDER_DENY_RM: string[] = [
  "$'\\x72m' x",
  "$'\\x72\\x6d' x",
  "$'\\162m' x",
  "$'r\\u006d' x",
  "$'\\U00000072m' x",
  "/bin/$'rm' x",
  "sudo $'\\x72m' -f x",
  "bash -c $'\\x72m x'",
  "xargs $'\\x72m' < list",
  "alias r=rm; r x",
  "alias r='rm -f'; r x",
  "alias ls=rm\nls x",
  "shopt -s expand_aliases; alias x=rm; x y",
  "alias a=ls b=rm; b x",
  "bash -c 'alias d=rm; d x'",
  "alias e=echo; alias r=rm; e hi; r x",
  "alias s='sudo rm'; s x",
  "r$'\x6d' x",
  "$'\x73\x68' -c 'rm x'",
  "alias s='sudo '; alias r=rm; s r x",
  "alias t='timeout 5 '; alias r=rm; t r x",
  "npx rm x",
  "npm exec -- rm x",
  "pnpm exec rm x",
  "uv run rm x",
  "poetry run rm x",
  "bundle exec rm x",
  "hash -p /bin/rm ls; ls x",
  "hash -p /usr/bin/rm cat; cat x",
  // configuration written with git config names the program git will run: it is checked as that program
  "git config -f .git/config core.fsmonitor 'rm x'",
  "git config --file=.git/config core.pager 'rm x'",
  "git config --type bool diff.external 'rm x'",
  "git config submodule.lib.update '!rm x'",
  "git config hook.pre-commit.command 'rm x'",
  "git config interactive.diffFilter 'rm x'",
  "git config mergetool.t.cmd 'rm x'",
];

/** Opaque: no allow rule approves them; under --allow-all-tools with a deny rule they ask; alone, they are allowed. */
const OPAQUE: [command: string, rule: string][] = [
  // sourcing or running code generated while the command runs
  [". <(echo rm x)", "shell"],
  ["source <(printf 'rm x')", "shell"],
  ["echo 'rm x' | source /dev/stdin", "shell"],
  ["source /dev/stdin <<< 'rm x'", "shell"],
  [". /dev/fd/0 < list", "shell"],
  ["source /proc/self/fd/0 < list", "shell"],
  ["bash <(echo rm x)", "shell(bash)"],
  ["sh /dev/stdin < list", "shell(sh)"],
  ["echo rm x | bash", "shell(bash)"],
  ["printf 'rm x' | sh -s", "shell(sh)"],
  ["cat list | sudo bash", "shell(sudo)"],
  // sed's e command and flag
  ["sed 'e rm x' README.md", "shell(sed)"],
  ["sed '1e rm x' README.md", "shell(sed)"],
  ["sed 's/.*/rm x/e' README.md", "shell(sed)"],
  ["sed -n 's/^/rm /ep' README.md", "shell(sed)"],
  ["sed -e 'e rm x' README.md", "shell(sed)"],
  ["sed --expression='1e rm x' README.md", "shell(sed)"],
  ["sed -f script.sed README.md", "shell(sed)"],
  ["sed -i 's/a/rm x/e' src/a.ts", "shell(sed)"],
  // tar running commands
  ["tar -cf a.tar src --checkpoint=1 --checkpoint-action=exec='rm x'", "shell(tar)"],
  ["tar cf a.tar src --checkpoint-action=exec=rm\\ x", "shell(tar)"],
  ["tar -xf a.tar --to-command='rm x'", "shell(tar)"],
  ["tar -I 'rm x' -cf a.tar src", "shell(tar)"],
  ["tar --use-compress-program='sh -c \"rm x\"' -cf a.tar src", "shell(tar)"],
  // ssh options that run a local command
  ["ssh -o ProxyCommand='rm x' host", "shell(ssh)"],
  ["ssh -oProxyCommand='rm x' host", "shell(ssh)"],
  ["ssh -o 'ProxyCommand rm x' host", "shell(ssh)"],
  ["ssh -o PermitLocalCommand=yes -o LocalCommand='rm x' host", "shell(ssh)"],
  ["ssh -F ./evil_config host", "shell(ssh)"],
  ["scp -o ProxyCommand='rm x' a host:b", "shell(scp)"],
  ["sftp -o ProxyCommand='rm x' host", "shell(sftp)"],
  ["rsync -e 'ssh -o ProxyCommand=rm' a host:b", "shell(rsync)"],
  // git's ext:: transport and pagers
  ["git -c protocol.ext.allow=always clone 'ext::sh -c rm% x' dst", "shell(git:*)"],
  ["git -cprotocol.ext.allow=always ls-remote 'ext::sh -c rm% x'", "shell(git:*)"],
  ["git -c protocol.allow=always fetch 'ext::sh -c rm% x'", "shell(git:*)"],
  ["git clone 'ext::sh -c rm% x' dst", "shell(git:*)"],
  ["git remote add o 'ext::sh -c rm% x'", "shell(git:*)"],
  ["git submodule add 'ext::sh -c rm% x' lib", "shell(git:*)"],
  ["git grep --open-files-in-pager='rm x' foo", "shell(git:*)"],
  ["git grep -O'rm x' foo", "shell(git:*)"],
  ["git grep -Orm foo", "shell(git:*)"],
  ["git -C src grep -O foo", "shell(git:*)"],
  // npm handing options to node or choosing the shell its scripts run in
  ["npm test --node-options='--require ./evil.js'", "shell(npm:*)"],
  ["npm run build --node-options=--require=./evil.js", "shell(npm:*)"],
  ["npm --script-shell=./evil.sh test", "shell(npm:*)"],
  ["npx --node-options=--require=./evil.js tsc", "shell(npx)"],
  ["pnpm --node-options='--require ./evil.js' test", "shell(pnpm:*)"],
  // git traces written where only the running command knows
  ["GIT_TRACE=$OUT git status", "shell(git:*)"],
  ["GIT_TRACE=af_unix:/tmp/s git status", "shell(git:*)"],
  // interpreters given their program inline or on their input
  ["perl -e 'unlink \"x\"'", "shell(perl)"],
  ["perl -E 'system(\"rm x\")'", "shell(perl)"],
  ["perl -ne 'print' README.md", "shell(perl)"],
  ["perl -i -pe 's/a/b/' README.md", "shell(perl)"],
  ["python -c 'import os; os.remove(\"x\")'", "shell(python)"],
  ["python3 -c 'import os; os.remove(\"x\")'", "shell(python3)"],
  ["python3.12 -c 'import os'", "shell(python3.12)"],
  ["python3 -Ic 'import os'", "shell(python3)"],
  ["python3 - <<'EOF'\nimport os\nos.remove('x')\nEOF", "shell(python3)"],
  ["echo 'import os' | python3", "shell(python3)"],
  ["node -e \"require('fs').rmSync('x')\"", "shell(node)"],
  ["node --eval=\"require('fs').rmSync('x')\"", "shell(node)"],
  ["node -p \"require('fs').rmSync('x')\"", "shell(node)"],
  ["ruby -e 'File.delete(\"x\")'", "shell(ruby)"],
  ["php -r 'unlink(\"x\");'", "shell(php)"],
  ["awk 'BEGIN{system(\"rm x\")}'", "shell(awk)"],
  ["gawk 'BEGIN{system(\"rm x\")}'", "shell(gawk)"],
  ["awk '{print | \"sh\"}' README.md", "shell(awk)"],
  ["awk '{print > \"out\"}' README.md", "shell(awk)"],
  ["awk -f prog.awk README.md", "shell(awk)"],
  ["make -f - <<'EOF'\nall:\n\trm x\nEOF", "shell(make:*)"],
  ["make -f /dev/stdin < mk", "shell(make:*)"],
  ["make --eval='all: ; rm x'", "shell(make:*)"],
  ["vim -c '!rm x' -c q README.md", "shell(vim)"],
  ["find . -exec perl -e 'unlink \"x\"' \\;", "shell(find)"],
  ["xargs perl -e 'unlink @ARGV' < list", "shell(xargs)"],
  ["sudo python3 -c 'import os'", "shell(sudo)"],
  ["env perl -e 'unlink \"x\"'", "shell(perl)"],
  ["timeout 5 python -c 'import os'", "shell(python)"],
  ["git -c alias.p='!perl -e 1' p", "shell(git:*)"],
  // input pasted into a script, commands given as options, configuration written for later
  ["ls | xargs -I{} sh -c 'echo {}'", "shell(xargs)"],
  ["find . -name '*.sh' -exec bash -c 'cat {}' \\;", "shell(find)"],
  ["parallel ::: 'rm x'", "shell(parallel)"],
  ["parallel -j 4 < cmds", "shell(parallel)"],
  ["man -P 'rm x' ls", "shell(man)"],
  ["git send-email --sendmail-cmd='rm x' a.patch", "shell(git:*)"],
  ["git clone --template=./tpl https://example.com/r.git d", "shell(git:*)"],
  ["git init --template=./tpl", "shell(git:*)"],
  ["git clone -c core.fsmonitor='rm x' https://example.com/r.git d", "shell(git:*)"],
  ["npx -c 'rm x'", "shell(npx)"],
  ["npm exec --call='rm x'", "shell(npm:*)"],
  ["npm config set script-shell ./evil.sh", "shell(npm:*)"],
  ["enable -f ./evil.so evil", "shell(enable)"],
  ["make SHELL=./evil.sh build", "shell(make:*)"],
  ["zip -T -TT 'rm x' a.zip src", "shell(zip)"],
  ["git config protocol.ext.allow always", "shell(git:*)"],
  ["git config remote.origin.vcs evil", "shell(git:*)"],
];

/** Not analysable at all: asked about in every mode, --allow-all-tools included. */
const UNPARSED: string[] = [
  "BASH_ALIASES[x]=rm; x y",
  "BASH_CMDS[ls]=/bin/rm; ls x",
  "npm_config_node_options='--require ./evil.js' npm test",
  "NPM_CONFIG_SCRIPT_SHELL=./evil.sh npm test",
  "GIT_ALLOW_PROTOCOL=ext git clone 'ext::sh -c rm% x' d",
  "alias r=$CMD; r x",
];

describe("commands whose effect cannot be seen", () => {
  it.each(RESOLVED_UNDER_DENY_RM)("resolves %j: denied by shell(rm) under --allow-all-tools", async (command) => {
    const decision = await sh(command, DENY_RM);
    expect(decision.verdict, decision.reason).toBe("deny");
    expect(decision.verdict === "deny" && decision.rule?.text).toBe("shell(rm)");
  });

  it.each(UNPARSED)("%j is asked about in every mode", async (command) => {
    for (const flags of [{ allowTool: ["shell"] }, DENY_RM, { ...ALL, allowAllPaths: true, allowAllUrls: true }])
      expect((await sh(command, flags)).verdict, JSON.stringify(flags)).toBe("ask");
  });

  it("an alias named like an allowed program runs what it says", async () => {
    expect((await sh("alias git=rm; git x", { allowTool: ["shell(git:*)", "shell(alias)"] })).verdict).toBe("ask");
    expect((await sh("alias git='git status; rm x'; git", { allowTool: ["shell(git:*)", "shell(alias)"] })).verdict).toBe("ask");
  });

  it("has many opaque variants", () => expect(OPAQUE.length).toBeGreaterThanOrEqual(60));

  it.each(OPAQUE)("%j: no allow rule approves it (%s, shell)", async (command, rule) => {
    for (const allow of [[rule], ["shell"], [rule, "write", "shell(echo)", "shell(cat)", "shell(printf)"]]) {
      const decision = await sh(command, { allowTool: allow });
      expect(decision.verdict, `${allow.join(",")}: ${decision.reason}`).toBe("ask");
      expect(hasConfirm(decision), decision.reason).toBe(true);
    }
  });

  it.each(OPAQUE)("%j: with a deny rule in force, --allow-all-tools asks and says why", async (command) => {
    const decision = await sh(command, DENY_RM);
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(decision.reason).toContain("--allow-all-tools does not approve it");
    expect(decision.reason).toContain("`shell(rm)` (--deny-tool)");
  });

  it.each(OPAQUE)("%j: without deny rules --allow-all-tools keeps meaning all", async (command) => {
    const decision = await sh(command, { allowAllTools: true, allowAllPaths: true, allowAllUrls: true });
    expect(decision.verdict, decision.reason).toBe("allow");
  });

  it.each([
    ["sed -n 's/a/b/p' README.md", "shell(sed)"],
    ["sed 's/e/f/g' README.md", "shell(sed)"],
    ["awk '{print $1}' README.md", "shell(awk)"],
    ["python3 script.py", "shell(python3)"],
    ["python3 -m pytest", "shell(python3)"],
    ["perl script.pl", "shell(perl)"],
    ["node --version", "shell(node)"],
    ["node build.js", "shell(node)"],
    ["ssh host ls", "shell(ssh)"],
    ["npm test", "shell(npm test)"],
    ["tar -tzf a.tgz", "shell(tar)"],
    ["make build", "shell(make:*)"],
    ["git clone https://example.com/r.git", "shell(git:*)"],
    ["bash script.sh", "shell(bash)"],
    ["vim +10 README.md", "shell(vim)"],
    ["sh <<EOF\necho hi\nEOF", "shell(sh)"],
  ])("%j is ordinary: %s allows it", async (command, rule) => {
    const decision = await sh(command, { allowTool: [rule], allowAllUrls: true });
    expect(decision.verdict, decision.reason).toBe("allow");
  });

  it.each(["git grep foo", "sed -n 1p README.md", "git status"])("%j stays read-only", async (command) => {
    expect(await sh(command)).toEqual({ verdict: "allow", reason: "read-only" });
  });
});
