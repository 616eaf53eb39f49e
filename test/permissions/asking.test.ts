import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { permissionModeLabel } from "../../src/core/permission-summary.js";
import { allowAllCommand } from "../../src/core/slash-commands/allow-all.js";
import { defaultCliOptions } from "../../src/cli/default-options.js";
import { parseCommandLine } from "../../src/cli/program.js";
import { permissionsConfigPath } from "../../src/permissions/permissions-config.js";
import { answerPermissions, startHarness, tempDir, waitForEvent, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useHarnesses } from "../support/harnesses.js";

const harnesses = useHarnesses();

function interactive(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  return harnesses.start({ interactive: true, ...options });
}

describe("asking a person", () => {
  it("asks before a write, with the seed's fields and a reason, and runs it once approved", async () => {
    const harness = await interactive();
    const file = path.join(harness.cwd, "hello.txt");
    harness.server.enqueue(toolCall("create", { path: file, file_text: "hi\n" }), text("done"));
    const asked = answerPermissions(harness, { kind: "approve-once" });
    await harness.session.send("create hello.txt");
    expect(readFileSync(file, "utf8")).toBe("hi\n");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.data.permissionRequest).toMatchObject({ kind: "write", fileName: file, intention: expect.stringContaining("hello.txt") });
    expect(asked[0]?.data.permissionRequest.kind === "write" && asked[0].data.permissionRequest.diff).toContain("+hi");
    const completed = harness.ofType("permission.completed")[0];
    expect(completed?.data).toMatchObject({ requestId: asked[0]?.data.requestId, result: { kind: "approved" }, decisionSource: "human_response" });
    // Order: requested → completed → tool.execution_start.
    const types = harness.types();
    expect(types.indexOf("permission.completed")).toBeLessThan(types.indexOf("tool.execution_start"));
  });

  it("fills in the analysed commands of a shell request", async () => {
    const harness = await interactive();
    harness.server.enqueue(toolCall("bash", { command: "ls && touch made.txt", description: "Touch" }), text("ok"));
    const asked = answerPermissions(harness, { kind: "approve-once" });
    await harness.session.send("touch");
    const request = asked[0]?.data.permissionRequest;
    if (request?.kind !== "shell") throw new Error("expected a shell request");
    expect(request.commands).toEqual([
      { identifier: "ls", readOnly: true },
      { identifier: "touch", readOnly: false },
    ]);
    expect(request.reason).toContain("`touch` needs approval");
    expect(request.canOfferSessionApproval).toBe(true);
    expect(existsSync(path.join(harness.cwd, "made.txt"))).toBe(true);
  });

  it("sends a refusal and the user's message to the model, and goes on", async () => {
    const harness = await interactive();
    const file = path.join(harness.cwd, "nope.txt");
    harness.server.enqueue(toolCall("create", { path: file, file_text: "x" }), text("Understood."));
    answerPermissions(harness, { kind: "deny", message: "use notes.md instead" });
    const result = await harness.session.send("create nope.txt");
    expect(result.outcome).toBe("completed");
    expect(existsSync(file)).toBe(false);
    const complete = harness.ofType("tool.execution_complete")[0];
    expect(complete?.data).toMatchObject({ success: false, error: { code: "denied-interactively-by-user" } });
    const tool = harness.server.completionRequests[1]?.body.messages.find((message) => message.role === "tool");
    expect(String(tool?.content)).toBe("The user rejected this tool call. The user said: use notes.md instead");
  });

  it("remembers 'yes for this session' for the same command stem, not for others", async () => {
    const harness = await interactive();
    harness.server.enqueue(
      toolCall("bash", { command: "touch a.txt", description: "a" }),
      toolCall("bash", { command: "touch b.txt && touch c.txt", description: "b" }),
      toolCall("bash", { command: "mkdir d", description: "d" }),
      text("done"),
    );
    const asked = answerPermissions(harness, { kind: "approve-for-session" }, { kind: "approve-once" });
    await harness.session.send("make files");
    expect(asked).toHaveLength(2);
    expect(asked[1]?.data.permissionRequest.kind === "shell" && asked[1].data.permissionRequest.fullCommandText).toBe("mkdir d");
    expect(existsSync(path.join(harness.cwd, "c.txt"))).toBe(true);
    // reset-allowed-tools forgets it.
    harness.session.dispatch({ type: "reset_allowed_tools" });
    harness.server.enqueue(toolCall("bash", { command: "touch e.txt", description: "e" }), text("done"));
    const again = answerPermissions(harness, { kind: "approve-once" });
    await harness.session.send("one more");
    expect(again).toHaveLength(1);
  });

  it("keeps 'always in this directory' in permissions-config.json, for the next session too", async () => {
    const server = await harnesses.sharedServer();
    const home = tempDir("home-");
    const cwd = tempDir("cwd-");
    const first = await interactive({ server, home, cwd });
    server.enqueue(toolCall("bash", { command: "git init -q", description: "init" }), text("ok"));
    answerPermissions(first, { kind: "approve-always" });
    await first.session.send("init");
    const saved = JSON.parse(readFileSync(permissionsConfigPath(home), "utf8")) as { locations: Record<string, { tool_approvals: unknown[] }> };
    expect(saved.locations[cwd]?.tool_approvals).toEqual([{ kind: "commands", commandIdentifiers: ["git init"] }]);

    const second = await interactive({ server, home, cwd });
    server.enqueue(toolCall("bash", { command: "git init -q", description: "init again" }), text("ok"));
    const asked = answerPermissions(second);
    await second.session.send("init again");
    expect(asked).toHaveLength(0);
    expect(second.ofType("tool.execution_complete")[0]?.data.success).toBe(true);
  });

  it.each(["approve-for-session", "approve-always"] as const)(
    "%s on a command that also writes grants that command and that file, named in the request, and no other write",
    async (kind) => {
      const server = await harnesses.sharedServer();
      const home = tempDir("home-");
      const harness = await interactive({ server, home });
      const out = path.join(harness.cwd, "out.txt");
      const other = path.join(harness.cwd, "other.txt");
      harness.server.enqueue(
        toolCall("bash", { command: "echo hi > out.txt && touch x", description: "two scopes" }),
        toolCall("create", { path: other, file_text: "other\n" }),
      );
      const asked = answerPermissions(harness, { kind }, { kind: "deny" });
      await harness.session.send("go");
      // A plain no ends the turn (Copilot's reject): the model is not asked again.
      expect(server.completionRequests).toHaveLength(2);
      expect(readFileSync(out, "utf8")).toBe("hi\n");
      expect(asked[0]?.data.permissionRequest.grants).toEqual({ commands: ["touch"], writes: [out], paths: [], origins: [], tools: [] });
      // The create of another file still asks, and was refused.
      expect(asked).toHaveLength(2);
      expect(asked[1]?.data.permissionRequest).toMatchObject({ kind: "write", fileName: other });
      expect(existsSync(other)).toBe(false);
      // What was granted still holds: the same file and the same command run unasked.
      harness.server.enqueue(toolCall("bash", { command: "echo again > out.txt && touch y", description: "again" }), text("ok"));
      await harness.session.send("again");
      expect(asked).toHaveLength(2);
      expect(existsSync(path.join(harness.cwd, "y"))).toBe(true);
      if (kind === "approve-always") {
        const saved = JSON.parse(readFileSync(permissionsConfigPath(home), "utf8")) as { locations: Record<string, { tool_approvals: unknown[] }> };
        expect(saved.locations[harness.cwd]?.tool_approvals).toEqual([
          { kind: "commands", commandIdentifiers: ["touch"] },
          { kind: "write", paths: [out] },
        ]);
        // And in the next session, another file's create asks too.
        const next = await interactive({ server, home, cwd: harness.cwd });
        server.enqueue(toolCall("create", { path: other, file_text: "other\n" }));
        const askedNext = answerPermissions(next, { kind: "deny" });
        await next.session.send("create");
        expect(askedNext).toHaveLength(1);
      }
    },
  );

  it("an old blanket {kind: write} approval in permissions-config.json grants nothing", async () => {
    const home = tempDir("home-");
    const cwd = tempDir("cwd-");
    writeFileSync(permissionsConfigPath(home), JSON.stringify({ locations: { [cwd]: { tool_approvals: [{ kind: "write" }] } } }));
    const harness = await interactive({ home, cwd });
    harness.server.enqueue(toolCall("create", { path: path.join(cwd, "a.txt"), file_text: "a" }), text("ok"));
    const asked = answerPermissions(harness, { kind: "deny" });
    await harness.session.send("create");
    expect(asked).toHaveLength(1);
  });

  it("an interrupt while waiting for an answer denies the call and stops the turn", async () => {
    const harness = await interactive();
    harness.server.enqueue(toolCall("bash", { command: "touch x", description: "x" }));
    const running = harness.session.send("touch");
    await waitForEvent(harness, (event) => event.type === "permission.requested");
    expect(harness.session.permissionBroker.pendingRequests).toHaveLength(1);
    harness.session.interrupt();
    const result = await running;
    expect(result.outcome).toBe("aborted");
    expect(existsSync(path.join(harness.cwd, "x"))).toBe(false);
    expect(harness.ofType("permission.completed")[0]?.data.result.kind).toBe("denied-interactively-by-user");
  });

  it("never asks about what a deny rule refuses, even with allow-all on", async () => {
    const harness = await interactive({ permissions: { denyTool: ["shell(rm)"] } });
    harness.session.permissionBroker.setAllowAll(true);
    harness.server.enqueue(toolCall("bash", { command: "touch f && rm f", description: "rm" }), text("ok"));
    const asked = answerPermissions(harness);
    await harness.session.send("rm");
    expect(asked).toHaveLength(0);
    expect(harness.ofType("tool.execution_complete")[0]?.data.error?.message).toMatch(/denied due to the following rules: `shell\(rm\)` \(--deny-tool\)/);
    expect(existsSync(path.join(harness.cwd, "f"))).toBe(false);
  });

  it("allow-all on and off", async () => {
    const harness = await interactive();
    harness.session.dispatch({ type: "set_allow_all", on: true });
    expect(harness.session.permissionBroker.allowAll).toBe(true);
    harness.server.enqueue(toolCall("bash", { command: "touch one", description: "1" }), text("ok"));
    expect(answerPermissions(harness)).toHaveLength(0);
    await harness.session.send("go");
    expect(existsSync(path.join(harness.cwd, "one"))).toBe(true);
    harness.session.dispatch({ type: "set_allow_all", on: false });
    expect(harness.session.permissionBroker.allowAll).toBe(false);
    harness.server.enqueue(toolCall("bash", { command: "touch two", description: "2" }), text("ok"));
    const asked = answerPermissions(harness, { kind: "deny" });
    await harness.session.send("go");
    expect(asked).toHaveLength(1);
  });
});

describe("what approves calls without asking, from every source", () => {
  const show = (harness: Harness) => allowAllCommand.run({ session: harness.session.engine, args: "show" });
  // parseCommandLine reads the version the build defines.
  beforeEach(() => vi.stubGlobal("AGENT_VERSION", "test"));
  afterEach(() => vi.unstubAllGlobals());

  it("--allow-all-tools from the command line or the environment is named, not shown as manual", async () => {
    const harness = await interactive({ permissions: parseCommandLine(["--allow-all-tools"]).permissions });
    expect(permissionModeLabel(harness.session.permissionBroker.summary)).toBe("Allow All Tools");
    expect(await show(harness)).toEqual({
      kind: "message",
      text: "Allow all is off.\nEvery tool call runs without asking (--allow-all-tools).\nDeny rules and the safety checks still apply.",
    });
    const saved = process.env.COPILOT_ALLOW_ALL;
    process.env.COPILOT_ALLOW_ALL = "true";
    try {
      expect(parseCommandLine([]).permissions.allowAllSources?.tools).toEqual(["COPILOT_ALLOW_ALL"]);
      expect(defaultCliOptions(process.env).permissions.allowAllSources?.tools).toEqual(["COPILOT_ALLOW_ALL"]);
    } finally {
      if (saved === undefined) delete process.env.COPILOT_ALLOW_ALL;
      else process.env.COPILOT_ALLOW_ALL = saved;
    }
  });

  it("--yolo is Allow All, and /allow-all off switches it off", async () => {
    const harness = await interactive({ permissions: parseCommandLine(["--yolo"]).permissions });
    expect(harness.session.permissionBroker.summary).toMatchObject({ tools: ["--yolo"], paths: ["--yolo"], urls: ["--yolo"] });
    expect(permissionModeLabel(harness.session.permissionBroker.summary)).toBe("Allow All");
    harness.session.permissionBroker.setAllowAll(false);
    expect(permissionModeLabel(harness.session.permissionBroker.summary)).toBe("Manual Approval");
  });

  it("/allow-all on then off returns to what the flags allowed, and says so", async () => {
    const harness = await interactive({ permissions: parseCommandLine(["--allow-all-urls"]).permissions });
    expect(permissionModeLabel(harness.session.permissionBroker.summary)).toBe("Allow All URLs");
    await allowAllCommand.run({ session: harness.session.engine, args: "on" });
    expect(harness.session.permissionBroker.summary).toMatchObject({ tools: ["/allow-all"], urls: ["--allow-all-urls", "/allow-all"] });
    const off = await allowAllCommand.run({ session: harness.session.engine, args: "off" });
    expect(off).toEqual({
      kind: "message",
      text: "Allow all is off. Still in force:\nEvery URL is allowed (--allow-all-urls).\nDeny rules and the safety checks still apply.",
    });
  });

  it("settings.json allow rules that cover a whole kind, and the command", async () => {
    const harness = await interactive({ settings: { permissions: { allow: ["shell", "shell(git:*)"] } } });
    expect(permissionModeLabel(harness.session.permissionBroker.summary)).toBe("Allowed: shell");
    expect((await show(harness)).kind === "message" && ((await show(harness)) as { text: string }).text).toContain("`shell` (settings.json permissions.allow)");
    harness.session.permissionBroker.setAllowAll(true);
    expect(harness.session.permissionBroker.summary).toMatchObject({ tools: ["/allow-all"], paths: ["/allow-all"], urls: ["/allow-all"] });
    expect(permissionModeLabel(harness.session.permissionBroker.summary)).toBe("Allow All");
  });

  it("nothing in force is Manual Approval", async () => {
    const harness = await interactive();
    expect(permissionModeLabel(harness.session.permissionBroker.summary)).toBe("Manual Approval");
    expect(await show(harness)).toEqual({ kind: "message", text: "Allow all is off: tool calls that need approval ask." });
  });
});

describe("headless decisions", () => {
  it("denies at once with the flags that would allow the call", async () => {
    const harness = await harnesses.start();
    harness.server.enqueue(toolCall("bash", { command: "cat /etc/hostname && touch x", description: "x" }), text("ok"));
    await harness.session.send("go");
    const error = harness.ofType("tool.execution_complete")[0]?.data.error;
    expect(error?.code).toBe("denied-no-approval-rule-and-could-not-request-from-user");
    expect(error?.message).toContain("--allow-tool 'shell(touch)'");
    expect(error?.message).toContain("--add-dir /etc ");
    expect(error?.message).not.toContain("--add-dir /etc/hostname");
    expect(error?.message).toContain("--allow-all-paths");
    expect(harness.ofType("permission.requested")).toHaveLength(0);
  });

  it("hides tools with --excluded-tools and --available-tools", async () => {
    const harness = await harnesses.start({ permissions: { excludedTools: ["bash"], availableTools: ["bash", "view", "grep"] } });
    harness.server.enqueue(text("ok"));
    await harness.session.send("hi");
    const tools = (harness.server.completionRequests[0]?.body.tools ?? []) as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name).sort()).toEqual(["grep", "view"]);
  });
});
