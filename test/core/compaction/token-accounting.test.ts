import { describe, expect, it } from "vitest";
import { checkpointTitle, fitForSummary, messagesToReplace, slugify } from "../../../src/core/compaction/compaction-plan.js";
import { contextBreakdown, TokenGauge, tokensForChars } from "../../../src/core/compaction/token-accounting.js";
import type { ChatMessage } from "../../../src/provider/types.js";

describe("token accounting", () => {
  it("estimates four characters a token, rounding up", () => {
    expect(tokensForChars(0)).toBe(0);
    expect(tokensForChars(1)).toBe(1);
    expect(tokensForChars(400)).toBe(100);
    expect(tokensForChars(-5)).toBe(0);
  });

  it("counts from characters until the endpoint reports usage, then from its prompt count plus what joined after", () => {
    const gauge = new TokenGauge();
    expect(gauge.current(4000, 400)).toBe(1100);
    gauge.observe(5000, 4000);
    expect(gauge.current(4000, 400)).toBe(5000);
    // The answer (800 characters) and a tool result of 8000 characters joined since.
    expect(gauge.current(12_800, 400)).toBe(7200);
    // Compacted to 1000 characters, counted at 2000 tokens in the endpoint's frame; 400 characters more since.
    gauge.rebase(2000, 1000);
    expect(gauge.current(1400, 400)).toBe(2100);
    const unanchored = new TokenGauge();
    unanchored.rebase(2000, 1000);
    expect(unanchored.current(1000, 400)).toBe(350);
  });

  it("goes down when the conversation shrinks below what was sent (a rewind), never below zero", () => {
    const gauge = new TokenGauge();
    gauge.observe(5000, 4000);
    // A rewind hid 2,000 of the 4,000 characters sent: 500 tokens fewer, not the old count.
    expect(gauge.current(2000, 400)).toBe(4500);
    gauge.observe(100, 4000);
    expect(gauge.current(0, 400)).toBe(0);
  });

  it("breaks the count down and gives the endpoint's surplus to the messages", () => {
    const report = contextBreakdown({
      model: "m",
      tokenLimit: 10_000,
      currentTokens: 3000,
      systemChars: 4000,
      toolChars: 2000,
      mcpToolChars: 400,
      messagesChars: 2000,
      messagesLength: 3,
      compactAt: 8000,
    });
    expect(report).toMatchObject({ systemTokens: 1000, toolsTokens: 400, mcpToolsTokens: 100, messagesTokens: 1500, currentTokens: 3000, freeTokens: 7000 });
  });
});

const user = (content: string): ChatMessage => ({ role: "user", content });
const assistantCall = (id: string): ChatMessage => ({ role: "assistant", content: "", toolCalls: [{ id, name: "view", arguments: "{}" }] });
const result = (id: string, content: string): ChatMessage => ({ role: "tool", toolCallId: id, content });

describe("the compaction plan", () => {
  it("keeps the newest messages within the tail budget and at most half of them", () => {
    const history = [user("a".repeat(400)), { role: "assistant", content: "b".repeat(400) } as ChatMessage, user("c".repeat(400)), user("d".repeat(40))];
    expect(messagesToReplace(history, 1000)).toBe(2);
    expect(messagesToReplace(history, 120)).toBe(2);
    expect(messagesToReplace(history, 50)).toBe(3);
    expect(messagesToReplace(history, 5)).toBe(4);
  });

  it("never starts the tail with a tool result (a call and its result stay on one side)", () => {
    const history = [user("q"), assistantCall("c1"), result("c1", "x".repeat(4000)), result("c1", "y"), user("next")];
    const removed = messagesToReplace(history, 10);
    expect(history[removed]?.role).not.toBe("tool");
    expect(removed).toBe(4);
  });

  it("reaches back to the assistant's call when the cut falls among its results and the budget allows", () => {
    const midTask = [user("do it"), assistantCall("c1"), result("c1", "done")];
    // At most half (one message) would keep only the result: the call joins it, the request goes with the summary.
    expect(messagesToReplace(midTask, 1000)).toBe(1);
    // Without room for the call, the results go with the summary too.
    expect(messagesToReplace(midTask, 1)).toBe(3);
    // The first message is never kept this way: something must be replaced.
    expect(messagesToReplace([assistantCall("c0"), result("c0", "x"), result("c0", "y")], 1000)).toBe(3);
  });

  it("shortens the longest contents to fit the summary request, keeping every message", () => {
    const history = [user("short"), result("c", `${"h".repeat(5000)}${"t".repeat(5000)}`), user("x".repeat(300))];
    const fitted = fitForSummary(history, 2000);
    expect(fitted).toHaveLength(3);
    expect(fitted[0]?.content).toBe("short");
    expect(fitted[1]?.content.startsWith("hhh")).toBe(true);
    expect(fitted[1]?.content.endsWith("ttt")).toBe(true);
    expect(fitted[1]?.content).toContain("characters left out");
    expect(fitted[1]?.content.length).toBeLessThan(2000);
    expect(fitForSummary(history, 1_000_000)).toEqual(history);
  });

  it("takes the title from <checkpoint_title>, else the overview, and slugs it", () => {
    expect(checkpointTitle("<overview>x</overview>\n<checkpoint_title>\nFix the parser!\n</checkpoint_title>")).toBe("Fix the parser!");
    expect(checkpointTitle("<overview>Port the CLI to Rust</overview>")).toBe("Port the CLI to Rust");
    expect(checkpointTitle("")).toBe("Compacted conversation");
    expect(slugify("Fix the parser!")).toBe("fix-the-parser");
    expect(slugify("***")).toBe("checkpoint");
  });
});
