/** Plan mode and ask_user in the whole app with the real engine: the dialogs answer through `respond`. */
import { describe, expect, it } from "vitest";
import { text, toolCall } from "../support/scripted-server.js";
import { useAppHarness } from "../support/app-harness.js";

const { start: startApp } = useAppHarness();

describe("plan mode in the app", () => {
  it("Shift+Tab enters plan mode; the review's 'exit without running' leaves it and tells the model", async () => {
    const { host, tui } = await startApp();
    tui.bus.press("shift+tab");
    await tui.waitForFrame((frame) =>
      /Plan/.test(
        frame
          .split("\n")
          .filter((line) => line.trim() !== "")
          .at(-1) ?? "",
      ),
    );
    expect(host.session.mode).toBe("plan");
    host.server.enqueue(toolCall("exit_plan_mode", { summary: "- one step" }), text("Understood, not implementing."));
    tui.bus.type("plan it");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Plan ready for review") && frame.includes("- one step"));
    expect(tui.frame()).not.toContain("Ask anything"); // the composer is hidden while the dialog asks
    tui.bus.type("3");
    await tui.waitForFrame((frame) => frame.includes("Understood, not implementing.") && frame.includes("Ask anything"));
    expect(host.session.mode).toBe("interactive");
    const review = host.server.completionRequests[1]?.body.messages.filter((message) => message.role === "tool").at(-1);
    expect(String(review?.content)).toContain("do not implement it");
  });

  it("shows an ask_user form and sends the answer", async () => {
    const { host, tui } = await startApp();
    host.server.enqueue(
      toolCall("ask_user", { message: "Ship it?", requestedSchema: { type: "object", properties: { ok: { type: "boolean", title: "Ready" } } } }),
      text("Shipping."),
    );
    tui.bus.type("go");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Ship it?") && frame.includes("1. Yes"));
    tui.bus.type("1");
    await tui.waitForFrame((frame) => frame.includes("Shipping."));
    const answer = host.server.completionRequests[1]?.body.messages.filter((message) => message.role === "tool").at(-1);
    expect(String(answer?.content)).toContain('"ok": true');
  });
});
