/**
 * The session keeps a record of the files its agent changed (create/edit calls, shell destinations the analysis
 * knows), and whether a person approved each change in a dialog; a rule does not approve a command that runs
 * such a file unless a person approved the change. The record survives a resume (it is rebuilt from the log's
 * tool.execution_start events). The real engine against the scripted server.
 */
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import { answerPermissions, startHarness, tempDir, type Harness } from "../support/engine-harness.js";
import { startScriptedServer, text, toolCall, type ScriptedServer } from "../support/scripted-server.js";

let server: ScriptedServer | undefined;
const open: Harness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A session in a fixed home and folder over one server, so that it can be closed and resumed. */
async function session(options: { permissions: Partial<PermissionFlags>; interactive?: boolean; resumeId?: string; home?: string; cwd?: string }) {
  server ??= await startScriptedServer();
  const home = options.home ?? tempDir("written-home-");
  const cwd = options.cwd ?? tempDir("written-cwd-");
  if (!options.home) dirs.push(home, cwd);
  const harness = await startHarness({
    server,
    home,
    cwd,
    permissions: options.permissions,
    interactive: options.interactive ?? false,
    resumeId: options.resumeId,
  });
  open.push(harness);
  return harness;
}

async function close(harness: Harness): Promise<void> {
  open.splice(open.indexOf(harness), 1);
  await harness.close();
}

const BUILD = "touch built.txt\n";
const lastResult = (harness: Harness) => harness.ofType("tool.execution_complete").at(-1)?.data;

describe("files the agent changed, in a session", () => {
  it("headless: the rule does not approve the script the agent wrote, and the record survives a resume", async () => {
    const permissions = { allowTool: ["write", "shell(sh)"] };
    const first = await session({ permissions });
    const script = path.join(first.cwd, "build.sh");
    server?.enqueue(
      toolCall("create", { path: script, file_text: BUILD }),
      toolCall("bash", { command: "sh build.sh", description: "Build" }),
      text("Refused."),
    );
    await first.session.send("build");
    const result = lastResult(first);
    expect(result?.success).toBe(false);
    expect(result?.error?.message).toContain(`\`sh\` is defined by ${script}, which the agent changed in this session`);
    expect(result?.error?.message).toContain("no interactive user response was available");
    expect(existsSync(path.join(first.cwd, "built.txt"))).toBe(false);
    // What the gate saw is on the call's start event, for a resume to rebuild the record from.
    const created = first.ofType("tool.execution_start").find((event) => event.data.toolName === "create");
    expect(created?.data.changedFiles).toEqual([{ path: script }]);
    expect(created?.data.approvedByUser).toBeUndefined();

    const { home, cwd } = first;
    const id = first.session.id;
    await close(first);
    const resumed = await session({ permissions, resumeId: id, home, cwd });
    server?.enqueue(toolCall("bash", { command: "sh build.sh", description: "Build" }), text("Still refused."));
    await resumed.session.send("build again");
    expect(lastResult(resumed)?.success).toBe(false);
    expect(lastResult(resumed)?.error?.message).toContain(`is defined by ${script}`);
    expect(existsSync(path.join(cwd, "built.txt"))).toBe(false);
  });

  it("a change a person approved in the dialog is theirs: the rule runs the script, also after a resume", async () => {
    const permissions = { allowTool: ["shell(sh)"] };
    const first = await session({ permissions, interactive: true });
    const script = path.join(first.cwd, "build.sh");
    const asked = answerPermissions(first, { kind: "approve-once" });
    server?.enqueue(toolCall("create", { path: script, file_text: BUILD }), toolCall("bash", { command: "sh build.sh", description: "Build" }), text("Built."));
    await first.session.send("build");
    expect(asked.map((event) => event.data.permissionRequest.kind)).toEqual(["write"]);
    expect(lastResult(first)?.success).toBe(true);
    expect(existsSync(path.join(first.cwd, "built.txt"))).toBe(true);
    expect(first.ofType("tool.execution_start").find((event) => event.data.toolName === "create")?.data.approvedByUser).toBe(true);

    const { home, cwd } = first;
    const id = first.session.id;
    await close(first);
    rmSync(path.join(cwd, "built.txt"));
    const resumed = await session({ permissions, interactive: true, resumeId: id, home, cwd });
    const askedAgain = answerPermissions(resumed);
    server?.enqueue(toolCall("bash", { command: "sh build.sh", description: "Build" }), text("Built again."));
    await resumed.session.send("build again");
    expect(askedAgain).toHaveLength(0);
    expect(existsSync(path.join(cwd, "built.txt"))).toBe(true);
  });

  it("interactive: a change a rule approved makes the command ask the person, saying which file, once for each run", async () => {
    const harness = await session({ permissions: { allowTool: ["write", "shell(sh)"] }, interactive: true });
    const script = path.join(harness.cwd, "build.sh");
    const asked = answerPermissions(harness, { kind: "approve-once" });
    server?.enqueue(toolCall("create", { path: script, file_text: BUILD }), toolCall("bash", { command: "sh build.sh", description: "Build" }), text("Built."));
    await harness.session.send("build");
    expect(asked).toHaveLength(1);
    const request = asked[0]?.data.permissionRequest;
    expect(request?.kind).toBe("shell");
    expect(request?.reason).toContain(`is defined by ${script}, which the agent changed in this session`);
    // Only a person, once: "yes for this session" is not offered for what a rule cannot approve.
    expect(request?.kind === "shell" && request.canOfferSessionApproval).toBe(false);
    expect(existsSync(path.join(harness.cwd, "built.txt"))).toBe(true);
  });

  it("a shell write the analysis knows is tracked like a file tool's", async () => {
    const harness = await session({ permissions: { allowTool: ["write", "shell(printf)", "shell(make)"] } });
    server?.enqueue(
      toolCall("bash", { command: "printf 'all:\\n\\ttouch made.txt\\n' > Makefile", description: "Write" }),
      toolCall("bash", { command: "make", description: "Make" }),
      text("Refused."),
    );
    await harness.session.send("make");
    expect(lastResult(harness)?.success).toBe(false);
    expect(lastResult(harness)?.error?.message).toContain(`is defined by ${path.join(harness.cwd, "Makefile")}`);
    expect(existsSync(path.join(harness.cwd, "made.txt"))).toBe(false);
  });
});
