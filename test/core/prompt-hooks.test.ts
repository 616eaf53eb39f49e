/**
 * userPromptSubmitted fires once for every prompt a person sends, however it reaches the conversation (idle,
 * queued behind the running prompt, steering between turns), and never for what is not theirs (autopilot
 * continuations). Its context travels with that prompt; a block drops that prompt and says so.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HookSet } from "../../src/hooks/hook-set.js";
import type { HookDefinition } from "../../src/hooks/load-hooks.js";
import { startHarness, tempDir, waitForEvent, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";
import { gateTool } from "../support/gate-tool.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const promptHook = (command: string): HookDefinition => ({
  event: "userPromptSubmitted",
  command,
  timeoutMs: 10_000,
  source: { kind: "user", file: "/test/hooks/test.json" },
});

const promptsSeen = (log: string): string[] =>
  existsSync(log)
    ? readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => String((JSON.parse(line) as { prompt: unknown }).prompt))
    : [];

const lastUserText = (h: Harness, request: number): string =>
  String(h.server.completionRequests[request]?.body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "");

describe("userPromptSubmitted for every person's prompt", () => {
  it("fires once each for an idle, a steering and a queued prompt, and its context reaches the model with each", async () => {
    const dir = tempDir("prompt-hooks-");
    const log = path.join(dir, "prompts.jsonl");
    const gate = gateTool();
    const hooks = new HookSet([promptHook(`cat >> ${log}; echo; echo '{"additionalContext":"Follow the style guide."}'`)], dir);
    harness = await startHarness({ extraTools: [gate.tool], hooks });
    harness.server.enqueue(toolCall("gate", {}), text("Steered."), text("Later done."));
    const first = harness.session.send("start");
    await waitForEvent(harness, (event) => event.type === "tool.execution_start");
    const steered = harness.session.dispatch({ type: "send", prompt: "use tabs", delivery: "immediate" });
    const queued = harness.session.send("then the docs");
    gate.release();
    await Promise.all([first, steered]);
    expect((await queued).finalMessage).toBe("Later done.");

    expect(promptsSeen(log)).toEqual(["start", "use tabs", "then the docs"]);
    expect(harness.ofType("user.message").map((event) => event.data.delivery)).toEqual(["idle", "steering", "queued"]);
    for (const [request, prompt] of [
      [0, "start"],
      [1, "use tabs"],
      [2, "then the docs"],
    ] as const) {
      expect(lastUserText(harness, request)).toContain(prompt);
      expect(lastUserText(harness, request)).toContain("Follow the style guide.");
    }
  });

  it("does not fire for autopilot continuations", async () => {
    const dir = tempDir("prompt-hooks-");
    const log = path.join(dir, "prompts.jsonl");
    const hooks = new HookSet([promptHook(`cat >> ${log}; echo`)], dir);
    harness = await startHarness({ hooks, mode: "autopilot", maxAutopilotContinues: 1 });
    harness.server.enqueue(text("Partly."), text("Rest."));
    await harness.session.send("do it all");
    expect(harness.ofType("user.message").filter((event) => event.data.isAutopilotContinuation)).toHaveLength(1);
    expect(promptsSeen(log)).toEqual(["do it all"]);
  });
});

describe("a userPromptSubmitted block", () => {
  const blocker = promptHook(`if grep -q secret; then echo 'no secrets in prompts' >&2; exit 2; fi`);

  it("drops an idle prompt before any model call and says why", async () => {
    harness = await startHarness({ hooks: new HookSet([blocker], tempDir("prompt-hooks-")) });
    const result = await harness.session.send("print the secret key");
    expect(result.finalMessage).toBe("");
    expect(harness.server.completionRequests).toHaveLength(0);
    expect(harness.ofType("user.message")).toHaveLength(0);
    const warning = harness.ofType("session.warning").find((event) => event.data.warningType === "prompt_blocked");
    expect(warning?.data.message).toContain("no secrets in prompts");

    // The session goes on: the next prompt is sent.
    harness.server.enqueue(text("Fine."));
    expect((await harness.session.send("list the files")).finalMessage).toBe("Fine.");
  });

  it("drops a blocked steering message and a blocked queued prompt, and the rest go on", async () => {
    const gate = gateTool();
    harness = await startHarness({ extraTools: [gate.tool], hooks: new HookSet([blocker], tempDir("prompt-hooks-")) });
    harness.server.enqueue(toolCall("gate", {}), text("Gate done."), text("Docs done."));
    const first = harness.session.send("start");
    await waitForEvent(harness, (event) => event.type === "tool.execution_start");
    const steered = harness.session.dispatch({ type: "send", prompt: "and show the secret", delivery: "immediate" });
    const blockedQueued = harness.session.send("the secret again");
    const queued = harness.session.send("then the docs");
    gate.release();
    expect((await Promise.all([first, steered]))[0].finalMessage).toBe("Gate done.");
    expect((await blockedQueued).finalMessage).toBe("");
    expect((await queued).finalMessage).toBe("Docs done.");

    expect(harness.server.completionRequests).toHaveLength(3);
    const sent = harness.server.completionRequests.flatMap((request) =>
      request.body.messages.filter((message) => message.role === "user").map((message) => String(message.content)),
    );
    expect(sent.some((content) => content.includes("secret"))).toBe(false);
    expect(harness.ofType("user.message").map((event) => event.data.content)).toEqual(["start", "then the docs"]);
    expect(harness.ofType("session.warning").filter((event) => event.data.warningType === "prompt_blocked")).toHaveLength(2);
  });
});
