/**
 * Responses cut by the output limit (finish_reason "length") against the scripted server: a cut answer
 * continues and reads as one answer; a tool call cut mid-arguments is not run (nor any call of the cut
 * response) and the model is told; a few cuts in a row are recovered from, then the run stops with the reason.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stopReasonOf } from "../../src/acp/acp-session.js";
import { CONTINUE_AFTER_CUT, MAX_OUTPUT_LIMIT_RECOVERIES } from "../../src/core/runtime/output-limit.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { text, toolCall, toolCalls } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const cut = { finishReason: "length" };
const toolResults = (h: Harness) => h.ofType("tool.execution_complete").map((event) => event.data);

describe("a response cut by the output limit", () => {
  it("a cut answer continues where it stopped, and the run's answer is the whole of it", async () => {
    harness = await startHarness();
    const h = harness;
    h.server.enqueue(text("The first half of the ans", cut), text("wer, and the rest."));
    const result = await h.session.send("explain");
    expect(result).toMatchObject({ outcome: "completed", finalMessage: "The first half of the answer, and the rest." });
    expect(h.ofType("assistant.message").map((event) => event.data.finishReason)).toEqual(["length", "stop"]);
    // The model is asked to go on (a notification, not a person's message), right after the cut piece.
    const notice = h.ofType("system.notification")[0];
    expect(notice?.data).toEqual({ kind: "output_limit", content: CONTINUE_AFTER_CUT });
    const second = h.server.completionRequests[1]?.body.messages ?? [];
    expect(second.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(second[2]?.content).toBe("The first half of the ans");
    expect(String(second[3]?.content)).toContain("Continue it exactly where it stopped");
    expect(h.ofType("user.message")).toHaveLength(1);
  });

  it("a non-streamed completion cut by the limit continues the same way", async () => {
    // The body is a Chat Completions one, so the test speaks that wire whatever AGENT_TEST_WIRE says.
    harness = await startHarness({ wire: "chat" });
    const h = harness;
    const completion = (content: string, finish: string) => ({
      kind: "json" as const,
      body: { id: "c", object: "chat.completion", model: "m", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: finish }] },
    });
    h.server.enqueue(completion("Alpha, bet", "length"), completion("a, gamma.", "stop"));
    expect((await h.session.send("list")).finalMessage).toBe("Alpha, beta, gamma.");
  });

  it("a tool call cut mid-arguments is not run, nor is any call of the cut response; the model is told and tries again", async () => {
    harness = await startHarness({ allowAllTools: true });
    const h = harness;
    const [whole, big, part] = ["whole.txt", "big.txt", "part-1.txt"].map((name) => path.join(h.cwd, name)) as [string, string, string];
    h.server.enqueue(
      toolCalls(
        [
          { name: "create", arguments: { path: whole, file_text: "complete" } },
          { name: "create", arguments: `{"path": ${JSON.stringify(big)}, "file_text": "a long file that never ends` },
        ],
        cut,
      ),
      toolCall("create", { path: part, file_text: "short" }),
      text("Written in parts."),
    );
    const result = await h.session.send("write a big file");
    expect(result).toMatchObject({ outcome: "completed", finalMessage: "Written in parts." });
    const [complete, cutCall, retry] = toolResults(h);
    for (const notRun of [complete, cutCall]) {
      expect(notRun).toMatchObject({ success: false, error: { code: "output_limit" } });
      expect(notRun?.error?.message).toMatch(/cut off by the output limit.*none of its tool calls ran/);
    }
    expect(retry?.success).toBe(true);
    // Neither call of the cut response ran, not even the one that was whole.
    expect([existsSync(whole), existsSync(big), existsSync(part)]).toEqual([false, false, true]);
    // The cut arguments are kept as they came (no parse crash); the history sent back is valid.
    const cutRequest = h.ofType("assistant.message")[0]?.data;
    expect(cutRequest?.finishReason).toBe("length");
    expect(cutRequest?.toolRequests?.[1]?.arguments).toMatch(/never ends$/);
    const second = h.server.completionRequests[1]?.body.messages ?? [];
    expect(second.filter((message) => message.role === "tool").map((message) => String(message.content))).toEqual([
      expect.stringMatching(/^Not run: your response was cut off/),
      expect.stringMatching(/^Not run: your response was cut off/),
    ]);
    expect(h.ofType("system.notification")).toHaveLength(0);
  });

  it(`recovers from ${MAX_OUTPUT_LIMIT_RECOVERIES} cuts in a row, then stops with the reason (answers and calls alike)`, async () => {
    for (const piece of [(index: number) => text(`part ${index} `, cut), () => toolCall("create", '{"path": "/tmp/never', cut)]) {
      harness = await startHarness({ provider: { maxOutputTokens: 64 } });
      const h = harness;
      h.server.enqueue(...Array.from({ length: 6 }, (_, index) => piece(index)));
      const result = await h.session.send("go on forever");
      expect(result.outcome).toBe("error");
      expect(result.error?.kind).toBe("output_limit");
      expect(result.error?.message).toMatch(/cut off by the output limit \(64 tokens\) 4 times in a row.*provider\.maxOutputTokens/);
      expect(h.server.completionRequests).toHaveLength(MAX_OUTPUT_LIMIT_RECOVERIES + 1);
      expect(h.ofType("session.error").at(-1)?.data.errorType).toBe("output_limit");
      expect(toolResults(h).every((result) => result.error?.code === "output_limit")).toBe(true);
      await h.close();
      harness = undefined;
    }
  });

  it("counts only cuts in a row: a whole response in between starts the count again", async () => {
    harness = await startHarness();
    const h = harness;
    h.server.enqueue(
      text("a", cut),
      text("b", cut),
      text("c", cut),
      toolCall("glob", { pattern: "*.md" }),
      text("d", cut),
      text("e", cut),
      text("f", cut),
      text("g."),
    );
    const result = await h.session.send("go");
    expect(result).toMatchObject({ outcome: "completed", finalMessage: "defg." });
  });

  it("in ACP, a run stopped by the output limit ends with max_tokens", () => {
    expect(stopReasonOf({ outcome: "error", finalMessage: "", continuations: 0, error: { kind: "output_limit", message: "cut" } }, "length")).toBe(
      "max_tokens",
    );
  });
});
