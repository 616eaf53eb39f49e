/**
 * The floor: catastrophic commands refused even under --yolo (--allow-all-tools --allow-all-paths
 * --allow-all-urls), unknowable ones asked about, ordinary deletes inside the workspace allowed, and each check
 * switchable in settings.json (`permissions.floor.disable`). Decisions only: nothing is executed. The fixture
 * lives under the temp dir, so --disallow-temp-dir keeps its sibling directory outside the allowed roots.
 */
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Settings } from "../../src/config/settings.js";
import type { Approvals } from "../../src/permissions/approvals.js";
import type { Decision } from "../../src/permissions/decide.js";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import { checkPermission, checkShell } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("perm-floor-");
const ws = path.join(root, "ws");
const outsideDir = path.join(root, "outside-dir");
const home = path.join(root, "home");
for (const dir of [path.join(ws, ".git"), path.join(ws, "build"), path.join(ws, "src", "gen"), outsideDir, home]) mkdirSync(dir, { recursive: true });
symlinkSync(outsideDir, path.join(ws, "link"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const YOLO: Partial<PermissionFlags> = { allowAllTools: true, allowAllPaths: true, allowAllUrls: true, disallowTempDir: true };
const env = { HOME: home, PATH: "/usr/bin:/bin" };
interface Extra {
  flags?: Partial<PermissionFlags>;
  settings?: Settings;
  approvals?: Partial<Approvals>;
}
const yolo = (command: string, extra: Extra = {}): Promise<Decision> =>
  checkShell(command, { cwd: ws, env, homeDir: home, ...extra, flags: { ...YOLO, ...extra.flags } });
const floorCheck = (decision: Decision) => (decision.verdict === "deny" ? decision.floorCheck : undefined);

const REFUSED: [command: string, check: string, what: string][] = [
  ["rm -rf /", "recursive-delete", "the root directory"],
  ["rm -rf /*", "recursive-delete", "the root directory"],
  ["rm -rf //", "recursive-delete", "the root directory"],
  ["rm -rf '/'", "recursive-delete", "the root directory"],
  ["rm -rf /usr/../", "recursive-delete", "the root directory"],
  ["rm -R /", "recursive-delete", "the root directory"],
  ["rm --recursive --force /", "recursive-delete", "the root directory"],
  ["rm -rf --no-preserve-root /", "recursive-delete", "the root directory"],
  ["rm -rf /e*", "recursive-delete", "the root directory"],
  ["rm -rf ~", "recursive-delete", "your home directory"],
  ["rm -rf ~/", "recursive-delete", "your home directory"],
  ["rm -rf ~/*", "recursive-delete", "your home directory"],
  ["rm -rf $HOME", "recursive-delete", "your home directory"],
  ['rm -rf "$HOME"', "recursive-delete", "your home directory"],
  ["rm -rf ${HOME}/", "recursive-delete", "your home directory"],
  ["rm -fr ..", "recursive-delete", "outside the allowed directories"],
  ["rm -r -- ..", "recursive-delete", "outside the allowed directories"],
  ["rm -rf ../outside-dir", "recursive-delete", "outside the allowed directories"],
  ["rm -rf build ../outside-dir", "recursive-delete", "outside the allowed directories"],
  ["rm -rf link/", "recursive-delete", "outside the allowed directories"],
  ["rm -rf link/*", "recursive-delete", "outside the allowed directories"],
  ["sudo rm -rf /", "recursive-delete", "the root directory"],
  ["bash -c 'rm -rf /'", "recursive-delete", "the root directory"],
  ['sh -c "rm -rf ~"', "recursive-delete", "your home directory"],
  ["eval rm -rf /", "recursive-delete", "the root directory"],
  ["env rm -rf /", "recursive-delete", "the root directory"],
  ["nohup rm -rf / &", "recursive-delete", "the root directory"],
  ["timeout 5 rm -rf /", "recursive-delete", "the root directory"],
  ["command rm -rf /", "recursive-delete", "the root directory"],
  ["ls && rm -rf /", "recursive-delete", "the root directory"],
  ["find / -delete", "recursive-delete", "the root directory"],
  ["find ~ -delete", "recursive-delete", "your home directory"],
  ["find .. -name '*.o' -delete", "recursive-delete", "outside the allowed directories"],
  ["chmod -R 777 /", "recursive-permissions", "the root directory"],
  ["chmod --recursive 777 /", "recursive-permissions", "the root directory"],
  ["chmod -R 000 ~", "recursive-permissions", "your home directory"],
  ["chown -R me ~", "recursive-permissions", "your home directory"],
  ["chgrp -R staff /", "recursive-permissions", "the root directory"],
  ["chmod -R 777 ..", "recursive-permissions", "outside the allowed directories"],
  ["dd if=/dev/zero of=/dev/sda", "block-device-write", "/dev/sda"],
  ["dd of=/dev/nvme0n1 if=image", "block-device-write", "/dev/nvme0n1"],
  ["echo x > /dev/sda", "block-device-write", "/dev/sda"],
  ["cat image > /dev/sdb1", "block-device-write", "/dev/sdb1"],
  ["tee /dev/sda < image", "block-device-write", "/dev/sda"],
  ["echo x > /dev/mapper/root", "block-device-write", "/dev/mapper/root"],
  ["mkfs.ext4 /dev/sdb1", "disk-tools", "format or partition"],
  ["mkfs -t ext4 /dev/sdb1", "disk-tools", "format or partition"],
  ["wipefs -a /dev/sda", "disk-tools", "format or partition"],
  ["fdisk /dev/sda", "disk-tools", "format or partition"],
  ["mkfs.ext4 $DEVICE", "disk-tools", "format or partition"],
];

describe("the floor refuses catastrophic commands even under --yolo", () => {
  it.each(REFUSED)("refuses %j (%s)", async (command, check, what) => {
    const decision = await yolo(command);
    expect(decision.verdict, decision.reason).toBe("deny");
    expect(floorCheck(decision)).toBe(check);
    expect(decision.reason).toContain(what);
    expect(decision.reason).toContain(`("${check}") applies even with --yolo`);
    expect(decision.reason).toContain("permissions.floor.disable");
  });

  it("refuses a file tool writing to a disk device", async () => {
    const decision = await checkPermission({ kind: "write", fileName: "/dev/sda", diff: "", intention: "x" }, "create", {
      cwd: ws,
      env,
      homeDir: home,
      flags: YOLO,
    });
    expect(floorCheck(decision)).toBe("block-device-write");
  });

  it("refuses without any flag too (a deny, not a question)", async () => {
    const decision = await checkShell("rm -rf /", { cwd: ws, env, homeDir: home, flags: { disallowTempDir: true } });
    expect(floorCheck(decision)).toBe("recursive-delete");
  });

  it("a deny rule still names itself before the floor", async () => {
    const decision = await yolo("rm -rf /", { flags: { denyTool: ["shell(rm)"] } });
    expect(decision.verdict).toBe("deny");
    expect(decision.verdict === "deny" && decision.rule?.text).toBe("shell(rm)");
  });
});

describe("what cannot be known before running is asked about, even under --yolo", () => {
  it.each([
    'rm -rf "$UNSET_VAR"/',
    "rm -rf $UNSET_VAR/*",
    "rm -rf $(pwd)",
    "xargs rm -rf < list",
    "echo / | xargs rm -rf",
    "find / -exec rm -rf {} +",
    "chmod -R 777 $DIR",
  ])("asks about %j, with a confirm need first", async (command) => {
    const decision = await yolo(command);
    expect(decision.verdict, decision.reason).toBe("ask");
    expect(decision.verdict === "ask" && decision.needs[0]?.kind).toBe("confirm");
    expect(decision.reason).toContain("until it runs");
  });

  it("an earlier approval of rm does not skip the confirmation", async () => {
    const decision = await yolo('rm -rf "$UNSET_VAR"/', { approvals: { commands: new Set(["rm"]) } });
    expect(decision.verdict).toBe("ask");
  });
});

describe("ordinary deletes inside the workspace are allowed under --yolo", () => {
  it.each([
    "rm -rf build",
    "rm -rf ./build src/gen",
    "rm -r build",
    "rm -rf build/*",
    "find . -name '*.o' -delete",
    "find build -delete",
    "chmod -R u+w build",
  ])("allows %j", async (command) => {
    expect(await yolo(command)).toEqual({ verdict: "allow", reason: "--allow-all-tools" });
  });

  it("still asks without flags: the floor is not an allow list", async () => {
    expect((await checkShell("rm -rf build", { cwd: ws, env, homeDir: home, flags: { disallowTempDir: true } })).verdict).toBe("ask");
  });
});

describe("settings.json permissions.floor.disable switches one check off", () => {
  const disable = (...checks: string[]): Settings => ({ permissions: { floor: { disable: checks } } });

  it("recursive-delete off: an outside directory may be deleted under --yolo", async () => {
    expect((await yolo(`rm -rf ${outsideDir}`)).verdict).toBe("deny");
    expect(await yolo(`rm -rf ${outsideDir}`, { settings: disable("recursive-delete") })).toEqual({ verdict: "allow", reason: "--allow-all-tools" });
  });

  it("the other checks stay on", async () => {
    const settings = disable("recursive-delete");
    expect(floorCheck(await yolo(`chmod -R 777 ${outsideDir}`, { settings }))).toBe("recursive-permissions");
    expect(floorCheck(await yolo("echo x > /dev/sda", { settings }))).toBe("block-device-write");
  });

  it("block-device-write off", async () => {
    expect((await yolo("echo x > /dev/sda", { settings: disable("block-device-write") })).verdict).toBe("allow");
  });

  it("deny rules are not part of the floor and stay on", async () => {
    const decision = await yolo(`rm -rf ${outsideDir}`, { settings: { permissions: { deny: ["shell(rm)"], floor: { disable: ["recursive-delete"] } } } });
    expect(decision.verdict).toBe("deny");
  });

  it("without --allow-all-paths, an outside delete with the check off is still asked about", async () => {
    const decision = await checkShell(`rm -rf ${outsideDir}`, {
      cwd: ws,
      env,
      homeDir: home,
      flags: { allowAllTools: true, disallowTempDir: true },
      settings: disable("recursive-delete"),
    });
    expect(decision.verdict === "ask" && decision.needs.map((need) => need.kind)).toEqual(["path"]);
  });
});

/** Wrong today: each deletes something catastrophic under --yolo without asking. They fail until fixed. */
describe("floor: bypasses found in the first version, now refused", () => {
  const notAllowed = async (command: string) => {
    const decision = await yolo(command);
    expect(decision.verdict, decision.reason).not.toBe("allow");
  };
  // analyze.ts: after `cd`, relative operands are still resolved against the working directory. That is safe for
  // the path gate (the cd target is checked) but not under --allow-all-paths, where the floor alone stands.
  it("cd / && rm -rf *", () => notAllowed("cd / && rm -rf *"));
  it("cd ~ && rm -rf .", () => notAllowed("cd ~ && rm -rf ."));
  it("cd .. && rm -rf outside-dir", () => notAllowed("cd .. && rm -rf outside-dir"));
  it("pushd / && rm -rf etc", () => notAllowed("pushd / && rm -rf etc"));
  // `~user` is not expanded: ~root is taken for a relative path inside the workspace.
  it("rm -rf ~root", () => notAllowed("rm -rf ~root"));
  // busybox runs its first operand as the program; it is not unwrapped.
  it("busybox rm -rf /", () => notAllowed("busybox rm -rf /"));
  // Beyond the documented checks (rm -r, find -delete): rsync --delete of an empty directory onto / deletes /.
  it("rsync -a --delete empty/ /", () => notAllowed("rsync -a --delete empty/ /"));
  // Too strict: rm does not follow a symlink named as an operand (without a trailing slash), so this removes only
  // the link inside the workspace; the floor realpaths it to the outside directory and refuses outright.
  it("rm -rf link removes only the link", async () => {
    expect(await yolo("rm -rf link")).toEqual({ verdict: "allow", reason: "--allow-all-tools" });
  });
});
