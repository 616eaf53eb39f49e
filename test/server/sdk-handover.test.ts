/**
 * A session held by one SDK server process, resumed by another (the SDK suite's "resume from a new client"):
 * the holder hands it over once idle, so the resume works and the log never has two writers; a holder in the
 * middle of a turn finishes it first.
 */
import { existsSync, watch } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, defineTool } from "@github/copilot-sdk";
import { text, toolCall } from "../support/scripted-server.js";
import { nextEvent, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

/** Resolves once the file exists in `dir` (watched, not polled). */
function whenPresent(dir: string, name: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, () => {
      if (existsSync(path.join(dir, name))) {
        watcher.close();
        resolve();
      }
    });
    if (existsSync(path.join(dir, name))) {
      watcher.close();
      resolve();
    }
  });
}

describe("SDK session handover between server processes", () => {
  it("hands an idle session to another process's resume; the first client finds it gone", async () => {
    sdk.server.enqueue(text("Two."), text("Four."));
    const first = sdk.world.client();
    const held = await first.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    await held.sendAndWait({ prompt: "1+1?" });

    const second = sdk.world.client();
    const resumed = await second.resumeSession(held.sessionId, { provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    expect((await resumed.sendAndWait({ prompt: "doubled?" }))?.data.content).toBe("Four.");
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body.messages)).toContain("Two.");
    const types = (await resumed.getEvents()).map((event) => event.type);
    expect(types.filter((type) => type === "session.resume")).toHaveLength(1);
    await expect(held.getEvents()).rejects.toThrow(/Session not found/);
  });

  it("lets the holder's running turn end before it hands the session over", async () => {
    sdk.server.enqueue(toolCall("slow_step", {}), text("Done with the step."), text("Resumed."));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = defineTool("slow_step", {
      description: "Waits until the test lets it finish",
      parameters: { type: "object", properties: {} },
      handler: async () => {
        await released;
        return "step finished";
      },
    });
    const first = sdk.world.client();
    const held = await first.createSession({ provider: sdk.provider(), model: "scripted-model", tools: [slow], onPermissionRequest: approveAll });
    const started = nextEvent(held, "tool.execution_start");
    const answered = held.sendAndWait({ prompt: "do the step" });
    await started;

    const second = sdk.world.client();
    const resuming = second.resumeSession(held.sessionId, { provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    // The tool is let go only once the second process has asked: the holder is mid-turn when it hears of it.
    await whenPresent(path.join(sdk.world.home, "session-state", held.sessionId), "handover.request");
    release();
    expect((await answered)?.data.content).toBe("Done with the step.");
    const resumed = await resuming;
    const events = await resumed.getEvents();
    const types = events.map((event) => event.type);
    // The first process's turn is whole in the log, and the second process's resume comes after it.
    expect(types.lastIndexOf("assistant.message")).toBeLessThan(types.indexOf("session.resume"));
    expect(events.some((event) => event.type === "assistant.message" && event.data.content === "Done with the step.")).toBe(true);
    expect((await resumed.sendAndWait({ prompt: "again" }))?.data.content).toBe("Resumed.");
  });
});
