/**
 * The path gate, through the real analysis: symlinks out of the workspace, `..`, absolute paths, --add-dir, the
 * temp dir, --allow-all-paths, `~` and $HOME, files not created yet, `cd`, globs, redirections, and write(.env) /
 * read(.env) rules. The workspace has a .git directory (so its root is fixed) and every case but the temp-dir
 * ones runs with --disallow-temp-dir, since the fixture itself lives under the temp dir.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PermissionRequest } from "../../src/protocol/events/index.js";
import type { Decision } from "../../src/permissions/decide.js";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import { checkPermission, checkShell } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("perm-gate-");
const ws = path.join(root, "ws");
const outside = path.join(root, "outside");
const home = path.join(root, "home");
for (const dir of [path.join(ws, ".git"), path.join(ws, "src"), path.join(ws, "config"), path.join(outside, "deep"), home]) mkdirSync(dir, { recursive: true });
writeFileSync(path.join(ws, "README.md"), "r\n");
writeFileSync(path.join(ws, ".env"), "KEY=1\n");
writeFileSync(path.join(ws, "src", "a.ts"), "export {};\n");
writeFileSync(path.join(outside, "secret.txt"), "s\n");
writeFileSync(path.join(home, ".bashrc"), "# rc\n");
symlinkSync(outside, path.join(ws, "link")); // a directory link out of the workspace
symlinkSync(path.join(outside, "secret.txt"), path.join(ws, "filelink")); // a file link out
symlinkSync(path.join(outside, "deep"), path.join(ws, "deeplink")); // link/.. is `outside` to the kernel
symlinkSync(path.join(outside, "created-through-link.txt"), path.join(ws, "dangling")); // a dangling link out
symlinkSync(ws, path.join(outside, "back")); // a link from outside back in
afterAll(() => rmSync(root, { recursive: true, force: true }));

const env = { HOME: home, PATH: "/usr/bin:/bin", OLDPWD: outside };
type Flags = Partial<PermissionFlags>;
const gated = (flags: Flags = {}): Flags => ({ disallowTempDir: true, ...flags });
const sh = (command: string, flags: Flags = {}) => checkShell(command, { cwd: ws, flags: gated(flags), env, homeDir: home });
const tool = (request: PermissionRequest, name: string, flags: Flags = {}) =>
  checkPermission(request, name, { cwd: ws, flags: gated(flags), env, homeDir: home });
const view = (file: string, flags: Flags = {}, name = "view") => tool({ kind: "read", path: file, intention: "x" }, name, flags);
const write = (file: string, flags: Flags = {}, name = "create") => tool({ kind: "write", fileName: file, diff: "", intention: "x" }, name, flags);

const needKinds = (decision: Decision) => (decision.verdict === "ask" ? decision.needs.map((need) => need.kind) : []);
const pathNeeds = (decision: Decision) =>
  decision.verdict === "ask" ? decision.needs.flatMap((need) => (need.kind === "path" ? [need.resolved ?? `?${need.text}`] : [])) : [];
const secret = path.join(outside, "secret.txt");

describe("symlinks are resolved before the gate", () => {
  it.each([
    ["view through a directory link", () => view(path.join(ws, "link", "secret.txt")), secret],
    ["view a file link", () => view(path.join(ws, "filelink")), secret],
    ["cat through a directory link", () => sh("cat link/secret.txt"), secret],
    ["cat a file link", () => sh("cat filelink"), secret],
    ["ls a directory link", () => sh("ls link/"), outside],
    ["cd into a directory link", () => sh("cd link && cat secret.txt"), outside],
    ["grep through a directory link", () => view(path.join(ws, "link"), {}, "grep"), outside],
  ] as const)("%s asks about the real path", async (_name, decide, real) => {
    const decision = await decide();
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(pathNeeds(decision)).toContain(real);
  });

  it("edit through a link asks for the write and the outside path", async () => {
    const decision = await write(path.join(ws, "link", "new.txt"), {}, "edit");
    expect(needKinds(decision)).toEqual(["write", "path"]);
    expect(pathNeeds(decision)).toEqual([path.join(outside, "new.txt")]);
  });

  it("a redirection through a file link is a write outside", async () => {
    const decision = await sh("echo x >> filelink");
    expect(needKinds(decision)).toEqual(["write", "path"]);
  });

  it("a link from outside back into the workspace is inside", async () => {
    expect(await sh(`cat ${path.join(outside, "back", "README.md")}`)).toEqual({ verdict: "allow", reason: "read-only" });
  });

  it("--allow-all-tools still asks about the outside path, naming it", async () => {
    const decision = await sh("cat link/secret.txt", { allowAllTools: true });
    expect(decision.verdict).toBe("ask");
    expect(decision.reason).toContain(`${secret} is outside the allowed directories`);
  });
});

describe("`..` and absolute paths", () => {
  it.each([
    ["cat ../outside/secret.txt", () => sh("cat ../outside/secret.txt")],
    ["cat < ../outside/secret.txt", () => sh("cat < ../outside/secret.txt")],
    ["cat -- ../outside/secret.txt", () => sh("cat -- ../outside/secret.txt")],
    ["cat ..'/outside'/secret.txt", () => sh("cat ..'/outside'/secret.txt")],
    ["grep -f ../outside/secret.txt README.md", () => sh("grep -f ../outside/secret.txt README.md")],
    ["cat README.md --file=../outside/secret.txt", () => sh("cat README.md --file=../outside/secret.txt")],
    ["view ../outside/secret.txt (relative)", () => view("../outside/secret.txt")],
    ["view ws/../outside/secret.txt", () => view(`${ws}/../outside/secret.txt`)],
    ["view the absolute outside path", () => view(secret)],
    ["cat the absolute outside path", () => sh(`cat ${secret}`)],
    ["git -C ../outside status", () => sh("git -C ../outside status")],
    ["env -C ../outside ls", () => sh("env -C ../outside ls")],
  ] as const)("%s asks about the outside file", async (_name, decide) => {
    const decision = await decide();
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(pathNeeds(decision).every((real) => real.startsWith(outside))).toBe(true);
    expect(pathNeeds(decision).length).toBeGreaterThan(0);
  });

  it.each(["cat /etc/hostname", "ls /", "find / -name x", "grep -r x /etc", "cd /etc && cat passwd", "pushd /etc"])("%s asks", async (command) => {
    const decision = await sh(command);
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(needKinds(decision)).toContain("path");
  });

  it.each([`cat ${ws}/README.md`, "cat src/../README.md", "cat ./src/a.ts", "ls src", "cat src/*.ts", "cd src && ls"])(
    "%s inside is read-only",
    async (command) => {
      expect(await sh(command)).toEqual({ verdict: "allow", reason: "read-only" });
    },
  );

  it("view of an absolute path inside needs nothing", async () => {
    expect(await view(path.join(ws, "README.md"))).toEqual({ verdict: "allow", reason: "read-only" });
  });

  it("glob and grep tools outside ask", async () => {
    expect((await view(root, {}, "glob")).verdict).toBe("ask");
    expect((await view(outside, {}, "grep")).verdict).toBe("ask");
  });

  it.each(["cat ../*", "cat ../out*/secret.txt", "cat ../outside/secret.tx?"])("glob %s is judged by its fixed directories: outside", async (command) => {
    expect(needKinds(await sh(command))).toEqual(["path"]);
  });

  it.each(["cat $FILE", 'cat "$(pwd)/x"', "cat $(echo /etc/passwd)"])("%s is only known at run time: asks", async (command) => {
    const decision = await sh(command);
    expect(decision.verdict).toBe("ask");
    expect(decision.reason).toContain("only known when the command runs");
  });
});

describe("allowed roots: --add-dir, the temp dir, --allow-all-paths", () => {
  it("--add-dir lets an outside directory in, for the shell, view and links into it", async () => {
    expect(await sh("cat ../outside/secret.txt", { addDir: [outside] })).toEqual({ verdict: "allow", reason: "read-only" });
    expect((await view(secret, { addDir: [outside] })).verdict).toBe("allow");
    expect((await sh("cat link/secret.txt", { addDir: ["../outside"] })).verdict).toBe("allow");
    expect((await sh("cat ~/.bashrc", { addDir: [outside] })).verdict).toBe("ask");
  });

  it("the temp dir is an allowed root unless --disallow-temp-dir", async () => {
    const options = { cwd: ws, env, homeDir: home };
    expect(await checkShell(`cat ${secret}`, { ...options, flags: {} })).toEqual({ verdict: "allow", reason: "read-only" });
    expect((await checkShell(`cat ${secret}`, { ...options, flags: { disallowTempDir: true } })).verdict).toBe("ask");
    const probe = path.join(os.tmpdir(), "perm-gate-not-created.txt");
    expect((await checkPermission({ kind: "read", path: probe, intention: "x" }, "view", { ...options, flags: {} })).verdict).toBe("allow");
    expect((await checkPermission({ kind: "read", path: probe, intention: "x" }, "view", { ...options, flags: { disallowTempDir: true } })).verdict).toBe(
      "ask",
    );
  });

  it("the temp dir is TMPDIR's, not /tmp as well: a workspace under /tmp does not open its neighbours", async () => {
    const slash = realpathSync(mkdtempSync("/tmp/perm-tmpdir-"));
    const saved = process.env.TMPDIR;
    try {
      for (const dir of ["ws/.git", "neighbour", "mytmp"]) mkdirSync(path.join(slash, dir), { recursive: true });
      process.env.TMPDIR = path.join(slash, "mytmp");
      const options = { cwd: path.join(slash, "ws"), env, homeDir: home };
      const neighbour = path.join(slash, "neighbour", "x.txt");
      expect(pathNeeds(await checkShell(`echo x > ${neighbour}`, { ...options, flags: {} }))).toEqual([neighbour]);
      expect(
        pathNeeds(
          await checkPermission({ kind: "write", fileName: neighbour, diff: "", intention: "x" }, "create", { ...options, flags: { allowAllTools: true } }),
        ),
      ).toEqual([neighbour]);
      const inTemp = path.join(slash, "mytmp", "x.txt");
      expect(
        (await checkPermission({ kind: "write", fileName: inTemp, diff: "", intention: "x" }, "create", { ...options, flags: { allowAllTools: true } }))
          .verdict,
      ).toBe("allow");
      expect(
        (
          await checkPermission({ kind: "write", fileName: inTemp, diff: "", intention: "x" }, "create", {
            ...options,
            flags: { allowAllTools: true, disallowTempDir: true },
          })
        ).verdict,
      ).toBe("ask");
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(slash, { recursive: true, force: true });
    }
  });

  it("--allow-all-paths lifts the gate but not the write approval", async () => {
    expect(await sh("cat /etc/hostname", { allowAllPaths: true })).toEqual({ verdict: "allow", reason: "read-only" });
    expect((await view(secret, { allowAllPaths: true })).verdict).toBe("allow");
    expect(needKinds(await sh("echo x > /etc/x", { allowAllPaths: true }))).toEqual(["write"]);
  });
});

describe("home: ~ and $HOME", () => {
  it.each(["cat ~/.bashrc", "cat $HOME/.bashrc", 'cat "$HOME/.bashrc"', "cat ${HOME}/.bashrc", "ls ~", "cd && ls", "cd ~ && ls"])(
    "%s is outside",
    async (command) => {
      const decision = await sh(command);
      expect(decision.verdict, decision.reason).toBe("ask");
      expect(pathNeeds(decision).every((real) => real.startsWith(home))).toBe(true);
    },
  );

  it("view ~/.bashrc resolves ~ to the home directory", async () => {
    expect(pathNeeds(await view("~/.bashrc"))).toEqual([path.join(home, ".bashrc")]);
  });

  it("echo x > ~/.bashrc asks for the write and the path", async () => {
    expect(needKinds(await sh("echo x > ~/.bashrc"))).toEqual(["write", "path"]);
  });

  it("--add-dir of home lets it in", async () => {
    expect((await sh("cat ~/.bashrc", { addDir: [home] })).verdict).toBe("allow");
  });
});

describe("files not created yet", () => {
  it("a new file in a new subdirectory is inside: only the write is asked", async () => {
    const decision = await write(path.join(ws, "new", "dir", "file.txt"));
    expect(needKinds(decision)).toEqual(["write"]);
    expect(decision.reason).toContain(path.join(ws, "new", "dir", "file.txt"));
    expect(needKinds(await sh("echo x > new/dir/file.txt"))).toEqual(["write"]);
    expect((await write(path.join(ws, "new", "dir", "file.txt"), { allowAllTools: true })).verdict).toBe("allow");
  });

  it("a new file under a link out is outside", async () => {
    expect(pathNeeds(await write(path.join(ws, "link", "sub", "new.txt")))).toEqual([path.join(outside, "sub", "new.txt")]);
  });
});

describe("redirections and write/read rules", () => {
  it("echo x > /etc/x asks; a write deny rule refuses it", async () => {
    expect(needKinds(await sh("echo x > /etc/x"))).toEqual(["write", "path"]);
    expect((await sh("echo x > /etc/x", { denyTool: ["write"], allowAllTools: true, allowAllPaths: true })).verdict).toBe("deny");
    expect((await sh("echo x > /etc/x", { denyTool: ["write(/etc/x)"], allowAllTools: true, allowAllPaths: true })).verdict).toBe("deny");
    expect((await sh("echo x > /etc/x", { allowAllTools: true, allowAllPaths: true })).verdict).toBe("allow");
  });

  it.each(["echo x > .env", "echo x >> ./.env", "printf x | tee .env", "echo x > config/.env", "echo x 2> .env"])(
    "write(.env) allows %j and deny write(.env) refuses it",
    async (command) => {
      expect(await sh(command, { allowTool: ["write(.env)", "shell(tee)"] })).toMatchObject({ verdict: "allow" });
      const denied = await sh(command, { denyTool: ["write(.env)"], allowAllTools: true });
      expect(denied.verdict).toBe("deny");
      expect(denied.verdict === "deny" && denied.rule?.text).toBe("write(.env)");
    },
  );

  it("write(.env) covers edit of .env and not README.md", async () => {
    expect((await write(path.join(ws, ".env"), { allowTool: ["write(.env)"] }, "edit")).verdict).toBe("allow");
    expect((await write(path.join(ws, "README.md"), { allowTool: ["write(.env)"] }, "edit")).verdict).toBe("ask");
    expect((await write(path.join(ws, ".env"), { denyTool: ["write(.env)"], allowAllTools: true }, "edit")).verdict).toBe("deny");
  });

  it.each(["cat .env", "cat ./src/../.env", "cat < .env", "grep KEY .env", "head -1 .env && echo done", "cp .env /tmp/copy"])(
    "deny read(.env) refuses %j",
    async (command) => {
      const decision = await sh(command, { denyTool: ["read(.env)"], allowAllTools: true, allowAllPaths: true });
      expect(decision.verdict, decision.reason).toBe("deny");
    },
  );

  it("deny read(.env) refuses view .env and leaves README.md", async () => {
    expect((await view(path.join(ws, ".env"), { denyTool: ["read(.env)"] })).verdict).toBe("deny");
    expect((await view(path.join(ws, "README.md"), { denyTool: ["read(.env)"] })).verdict).toBe("allow");
    expect((await sh("cat README.md", { denyTool: ["read(.env)"] })).verdict).toBe("allow");
  });
});

/** Wrong today: each one lets a path past the gate or a rule. They fail until fixed. */
describe("path gate: bypasses found in the first version, now refused", () => {
  const notAllowed = async (decision: Promise<Decision>) => {
    const result = await decision;
    expect(result.verdict, result.reason).not.toBe("allow");
  };
  // paths.ts check(): path.resolve() collapses `deeplink/..` before realpath; the kernel resolves the link first,
  // so this reads outside/secret.txt.
  it("cat deeplink/../secret.txt reads outside", () => notAllowed(sh("cat deeplink/../secret.txt")));
  it("ls deeplink/.. lists outside", () => notAllowed(sh("ls deeplink/..")));
  // paths.ts check(): a glob is cut at its first wildcard and only the dirname is checked; `..` after it is lost.
  it("cat */../../outside/secret.txt reads outside", () => notAllowed(sh("cat */../../outside/secret.txt")));
  it("cat src/*/../../../outside/secret.txt reads outside", () => notAllowed(sh("cat src/*/../../../outside/secret.txt")));
  // analyze.ts word(): only `~` and `~/` are expanded; `~root` is read as a relative path inside the workspace.
  it("cat ~root/.bashrc reads /root", () => notAllowed(sh("cat ~root/.bashrc")));
  // words.ts evaluateWord(): brace expansion is taken as one literal word.
  it("cat {../outside/secret.txt,README.md} reads outside", () => notAllowed(sh("cat {../outside/secret.txt,README.md}")));
  // cd with CDPATH, and `cd -` (OLDPWD), go where the analysis does not look.
  it("CDPATH=.. cd outside && cat secret.txt", () => notAllowed(sh("CDPATH=.. cd outside && cat secret.txt")));
  it("cd - && cat secret.txt with OLDPWD outside", () => notAllowed(sh("cd - && cat secret.txt")));
  // paths.ts resolveReal(): realpath fails on a dangling link, so the link's own path (inside) is checked; the
  // write follows the link and creates the file outside (verified with bash). --allow-all-tools is not
  // --allow-all-paths, so this must still ask.
  it("echo x > dangling writes outside under --allow-all-tools", () => notAllowed(sh("echo x > dangling", { allowAllTools: true })));
  it("create through a dangling link writes outside under --allow-all-tools", () => notAllowed(write(path.join(ws, "dangling"), { allowAllTools: true })));
  // A glob that names .env is checked as its directory, so read(.env) / write(.env) deny rules do not see it.
  it("deny read(.env): cat .e*", () => notAllowed(sh("cat .e*", { denyTool: ["read(.env)"], allowAllTools: true })));
  it("deny write(.env): echo x > .en?", () => notAllowed(sh("echo x > .en?", { denyTool: ["write(.env)"], allowAllTools: true })));
  // Beyond the letter (only redirections count as writes), but a deny write(.env) rule is a safety intent:
  // cp/mv/sed -i destinations are recorded as reads.
  it("deny write(.env): cp x .env", () => notAllowed(sh("cp README.md .env", { denyTool: ["write(.env)"], allowAllTools: true })));
  it("deny write(.env): sed -i s/1/2/ .env", () => notAllowed(sh("sed -i s/1/2/ .env", { denyTool: ["write(.env)"], allowAllTools: true })));
});
