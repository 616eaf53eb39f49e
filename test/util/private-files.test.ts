/**
 * The one helper every write under AGENT_HOME goes through, under a permissive umask (000) and a strange one
 * (277, which would leave a new file read-only): what it creates is exactly 0700 / 0600, what exists already
 * keeps its mode, and a device is never touched. Then the writers a headless run does not reach.
 */
import { closeSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { makePrivateDir, openPrivateFile, replacePrivateFile, writePrivateFile } from "../../src/util/private-files.js";
import { trustFolder } from "../../src/config/folder-trust.js";
import { rememberApprovals } from "../../src/permissions/permissions-config.js";
import { emptyApprovals } from "../../src/permissions/approvals.js";
import { FilePromptHistory } from "../../src/session/prompt-history.js";
import { savedBlob } from "../../src/server/blob-attachments.js";

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);
const original = process.umask();
afterEach(() => {
  process.umask(original);
});

describe.each([0o000, 0o277])("with umask %o", (umask) => {
  it("makes every new folder level 0700 and leaves an existing one alone", () => {
    const root = tempDir("private-");
    mkdirSync(path.join(root, "mine"), { mode: 0o755 });
    process.umask(umask);
    makePrivateDir(path.join(root, "mine", "a", "b", "c"));
    expect(["a", "a/b", "a/b/c"].map((part) => mode(path.join(root, "mine", part)))).toEqual(["700", "700", "700"]);
    process.umask(original);
    expect(mode(path.join(root, "mine"))).toBe("755");
  });

  it("writes a new file 0600; an existing one keeps its mode unless tightened; a replaced one is 0600", () => {
    const dir = tempDir("private-");
    const existing = path.join(dir, "existing");
    writeFileSync(existing, "old");
    process.umask(umask);
    writePrivateFile(path.join(dir, "new"), "new");
    process.umask(original);
    expect(mode(path.join(dir, "new"))).toBe("600");
    expect(mode(existing)).toBe((0o666 & ~original).toString(8));
    process.umask(umask);
    writePrivateFile(existing, "appended", { append: true });
    expect(readFileSync(existing, "utf8")).toBe("oldappended");
    expect(mode(existing)).toBe((0o666 & ~original).toString(8));
    replacePrivateFile(existing, "replaced");
    expect(readFileSync(existing, "utf8")).toBe("replaced");
    expect(mode(existing)).toBe("600");
    const tightened = path.join(dir, "tightened");
    writeFileSync(tightened, "", { mode: 0o644 });
    closeSync(openPrivateFile(tightened, "a+", { tighten: true }));
    expect(mode(tightened)).toBe("600");
    expect(() => writePrivateFile(tightened, "x", { exclusive: true })).toThrow(/EEXIST/);
  });
});

describe("private files", () => {
  it("never changes a device's mode, even when asked to tighten", () => {
    const before = mode("/dev/null");
    closeSync(openPrivateFile("/dev/null", "a+", { tighten: true }));
    expect(mode("/dev/null")).toBe(before);
  });

  it("replaces over a temporary a crashed process with the same pid left behind, and leaves none", () => {
    const dir = tempDir("private-");
    const file = path.join(dir, "config.json");
    writeFileSync(`${file}.${process.pid}.tmp`, "left over", { mode: 0o644 });
    replacePrivateFile(file, "{}");
    expect(mode(file)).toBe("600");
    expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false);
  });

  it("the writers an interactive session uses (trust, approvals, prompt history, SDK images) create private files", () => {
    process.umask(0);
    const home = path.join(tempDir("private-"), "home");
    const cwd = tempDir("private-cwd-");
    trustFolder(home, cwd);
    rememberApprovals(home, cwd, { ...emptyApprovals(), commands: new Set(["git status"]) });
    new FilePromptHistory(home).add("a prompt");
    const image = savedBlob(path.join(home, "session-state", "s1"), { data: Buffer.from("png").toString("base64"), mimeType: "image/png" });
    process.umask(original);
    expect(mode(home)).toBe("700");
    for (const name of ["config.json", "permissions-config.json", "command-history-state.json"])
      expect([name, mode(path.join(home, name))]).toEqual([name, "600"]);
    expect(mode((image as { path: string }).path)).toBe("600");
    expect(["session-state", "session-state/s1", "session-state/s1/files"].map((part) => mode(path.join(home, part)))).toEqual(["700", "700", "700"]);
  });
});
