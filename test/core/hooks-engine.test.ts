/**
 * Hooks inside the engine: subagents fire theirs (start context, stop block, their tool calls with the agent's
 * name), permissionRequest answers in place of the dialog, postToolUse gets the result, /hooks lists them,
 * and a session without hooks never runs any.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentSession } from "../../src/core/agent-session.js";
import { HookSet } from "../../src/hooks/hook-set.js";
import type { HookDefinition } from "../../src/hooks/load-hooks.js";
import type { HookEventName } from "../../src/hooks/hook-schema.js";
import { startHarness, tempDir, type Harness } from "../support/engine-harness.js";
import { existsSync } from "node:fs";
import { httpError, text, toolCall } from "../support/scripted-server.js";
import { delegateTool } from "../support/delegate-tool.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const hook = (event: HookEventName, command: string, matcher?: string): HookDefinition => ({
  event,
  command,
  timeoutMs: 10_000,
  ...(matcher ? { matcher: new RegExp(`^(?:${matcher})$`) } : {}),
  source: { kind: "user", file: "/test/hooks/test.json" },
});

const payloads = (file: string): Record<string, unknown>[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("hooks in the engine", () => {
  it("a subagent fires subagentStart (context first), preToolUse with its name, and subagentStop (one more turn)", async () => {
    const dir = tempDir("hooks-engine-");
    const log = path.join(dir, "payloads.jsonl");
    let engine: AgentSession | undefined;
    const hooks = new HookSet(
      [
        hook("subagentStart", `echo '{"additionalContext":"Only look in src/."}'`, "explore"),
        hook("preToolUse", `cat >> ${log}`, "view"),
        hook("subagentStop", `if grep -q '"stop_hook_active":false'; then echo '{"decision":"block","reason":"Check once more."}'; fi`),
      ],
      dir,
    );
    harness = await startHarness({ extraTools: [delegateTool(() => engine as AgentSession, { agentName: "explore" })], hooks });
    engine = harness.session.engine;
    harness.server.enqueue(
      toolCall("delegate", { prompt: "find it" }, { id: "call_parent" }),
      toolCall("view", { path: harness.cwd }),
      text("found"),
      text("checked again"),
      text("Done."),
    );
    const result = await harness.session.send("ask the helper");
    expect(result.finalMessage).toBe("Done.");
    const requests = harness.server.completionRequests;
    expect(String(requests[1]?.body.messages.at(-1)?.content)).toBe("Only look in src/.\n\nfind it");
    expect(String(requests[3]?.body.messages.at(-1)?.content)).toBe("Check once more.");
    expect(String(requests[4]?.body.messages.at(-1)?.content)).toBe("helper said: checked again");
    const [pre] = payloads(log);
    expect(pre).toMatchObject({ toolName: "view", agentName: "explore", toolArgs: JSON.stringify({ path: harness.cwd }) });
    const childHookEvents = harness.events.filter((event) => event.type === "hook.start" && event.agentId === "helper-1");
    expect(childHookEvents.map((event) => (event.data as { hookType: string }).hookType)).toEqual([
      "subagentStart",
      "preToolUse",
      "subagentStop",
      "subagentStop",
    ]);
  });

  it("permissionRequest answers in place of the dialog, and postToolUse gets the result", async () => {
    const dir = tempDir("hooks-engine-");
    const log = path.join(dir, "post.jsonl");
    const hooks = new HookSet([hook("permissionRequest", `echo '{"permissionDecision":"allow"}'`, "bash"), hook("postToolUse", `cat >> ${log}`)], dir);
    harness = await startHarness({ hooks });
    harness.server.enqueue(toolCall("bash", { command: "echo hello > out.txt && cat out.txt", description: "Write" }), text("ok"));
    await harness.session.send("write");
    expect(readFileSync(path.join(harness.cwd, "out.txt"), "utf8")).toBe("hello\n");
    const [post] = payloads(log);
    expect(post).toMatchObject({ toolName: "bash", toolResult: { resultType: "success" } });
    expect(String((post?.toolResult as { textResultForLlm: string }).textResultForLlm)).toContain("hello");
    expect(harness.ofType("permission.requested")).toHaveLength(0);
  });

  it("preToolUse's modifiedArgs replace the model's arguments (validated again); its ask asks what the rules allow", async () => {
    const dir = tempDir("hooks-engine-");
    const rewrite = `echo '{"modifiedArgs":{"command":"touch rewritten.txt","description":"Rewritten"}}'`;
    harness = await startHarness({ hooks: new HookSet([hook("preToolUse", rewrite, "bash")], dir), allowAllTools: true });
    harness.server.enqueue(toolCall("bash", { command: "touch original.txt", description: "Touch" }), text("ok"));
    await harness.session.send("touch");
    expect(existsSync(path.join(harness.cwd, "rewritten.txt"))).toBe(true);
    expect(existsSync(path.join(harness.cwd, "original.txt"))).toBe(false);
    await harness.close();

    harness = await startHarness({ hooks: new HookSet([hook("preToolUse", `echo '{"modifiedArgs":{"command":42}}'`, "bash")], dir), allowAllTools: true });
    harness.server.enqueue(toolCall("bash", { command: "touch original.txt", description: "Touch" }), text("ok"));
    await harness.session.send("touch");
    expect(String(harness.server.completionRequests.at(-1)?.body.messages.at(-1)?.content)).toContain(
      "A preToolUse hook rewrote the arguments into invalid ones",
    );
    expect(existsSync(path.join(harness.cwd, "original.txt"))).toBe(false);
    await harness.close();

    // `echo hi` is read-only (allowed without asking); "ask" makes it need a person, and -p has none.
    harness = await startHarness({ hooks: new HookSet([hook("preToolUse", `echo '{"permissionDecision":"ask"}'`)], dir) });
    harness.server.enqueue(toolCall("bash", { command: "echo hi", description: "Say hi" }), text("ok"));
    await harness.session.send("say hi");
    expect(String(harness.server.completionRequests.at(-1)?.body.messages.at(-1)?.content)).toContain("a preToolUse hook asks for approval");
  });

  it("an interrupt does not wait for a hanging hook: its process group is killed and the prompt ends", async () => {
    harness = await startHarness({
      hooks: new HookSet([{ ...hook("preToolUse", "sleep 3600"), timeoutMs: 3_600_000 }], tempDir("hooks-engine-")),
      allowAllTools: true,
    });
    harness.server.enqueue(toolCall("bash", { command: "echo hi", description: "Hi" }));
    const started = harness.session.send("go");
    const waitForHook = new Promise<void>((resolve) => harness?.session.subscribe((event) => (event.type === "hook.start" ? resolve() : undefined)));
    await waitForHook;
    // The hook would hold the prompt for an hour: the prompt ends only because the interrupt killed it.
    harness.session.interrupt();
    const result = await started;
    expect(result.outcome).toBe("aborted");
    expect(harness.ofType("session.warning")).toHaveLength(0);
  });

  it("errorOccurred hears a session error", async () => {
    const dir = tempDir("hooks-engine-");
    const log = path.join(dir, "errors.jsonl");
    harness = await startHarness({ hooks: new HookSet([hook("errorOccurred", `cat >> ${log}`)], dir), retry: { maxRetries: 0 } });
    harness.server.enqueue(httpError(400, { message: "bad request body" }));
    await harness.session.send("hello");
    await harness.session.engine.hooks?.settle();
    const [payload] = payloads(log);
    expect(payload).toMatchObject({ error: { message: expect.stringContaining("bad request body") } });
  });

  it("/hooks lists what is loaded and from where", async () => {
    harness = await startHarness({ hooks: new HookSet([hook("preToolUse", "./guard.sh", "bash|edit")], tempDir("h-"), ["/x/bad.json: not valid JSON"]) });
    await harness.session.dispatch({ type: "input", text: "/hooks" });
    const textOf = harness
      .ofType("session.warning")
      .map((event) => event.data.message)
      .join("\n");
    expect(textOf).toContain("/test/hooks/test.json (user)");
    expect(textOf).toContain("preToolUse [bash|edit]: ./guard.sh (timeout 10 s)");
    expect(textOf).toContain("/x/bad.json: not valid JSON");
  });

  it("a session without hooks runs none and reports none", async () => {
    harness = await startHarness();
    harness.server.enqueue(toolCall("view", { path: "." }), text("ok"));
    await harness.session.send("look");
    expect(harness.session.engine.hooks).toBeUndefined();
    expect(harness.events.some((event) => event.type.startsWith("hook."))).toBe(false);
  });
});
