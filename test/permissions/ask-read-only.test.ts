/**
 * The SDK face's preset (askReadOnly): a read-only command or a file read is asked like any other call unless
 * a rule, an approval or a flag allows it; deny rules still win; without the preset read-only needs nothing.
 */
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkPermission, checkShell } from "../support/permission-check.js";

const cwd = realpathSync(mkdtempSync(path.join(os.tmpdir(), "ask-read-only-")));
const file = path.join(cwd, "notes.txt");
writeFileSync(file, "hello\n");
const read = { kind: "read" as const, path: file, intention: `Read ${file}` };

describe("askReadOnly", () => {
  it("asks about a read-only command, naming the command as what needs approval", async () => {
    expect((await checkShell("echo hi", { cwd })).verdict).toBe("allow");
    const asked = await checkShell("echo hi", { cwd, askReadOnly: true });
    expect(asked).toMatchObject({ verdict: "ask", needs: [{ kind: "command", identifier: "echo" }] });
    expect((await checkShell("cat notes.txt | wc -l", { cwd, askReadOnly: true })).verdict).toBe("ask");
  });

  it("asks about a file read inside the workspace", async () => {
    expect((await checkPermission(read, "view", { cwd })).verdict).toBe("allow");
    expect(await checkPermission(read, "view", { cwd, askReadOnly: true })).toMatchObject({ verdict: "ask", needs: [{ kind: "tool", name: "view" }] });
  });

  it("a rule, an approval or --allow-all-tools allows it without asking", async () => {
    expect((await checkShell("echo hi", { cwd, askReadOnly: true, flags: { allowTool: ["shell(echo)"] } })).verdict).toBe("allow");
    expect((await checkShell("echo hi", { cwd, askReadOnly: true, approvals: { commands: new Set(["echo"]) } })).verdict).toBe("allow");
    expect((await checkShell("echo hi", { cwd, askReadOnly: true, flags: { allowAllTools: true } })).verdict).toBe("allow");
    expect((await checkPermission(read, "view", { cwd, askReadOnly: true, flags: { allowTool: ["view"] } })).verdict).toBe("allow");
    expect((await checkPermission(read, "view", { cwd, askReadOnly: true, approvals: { tools: new Set(["view"]) } })).verdict).toBe("allow");
  });

  it("a deny rule still wins, and a command that is not read-only is asked as before", async () => {
    expect((await checkShell("echo hi", { cwd, askReadOnly: true, flags: { allowAllTools: true, denyTool: ["shell(echo)"] } })).verdict).toBe("deny");
    expect(await checkShell("touch made.txt", { cwd, askReadOnly: true })).toMatchObject({ verdict: "ask", needs: [{ kind: "command", identifier: "touch" }] });
  });
});
