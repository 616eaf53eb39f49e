import { describe, expect, it } from "vitest";
import { appendFileSync } from "node:fs";
import { tempDir } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useHarnesses } from "../support/harnesses.js";

const harnesses = useHarnesses();

describe("resume", () => {
  it("replays the conversation into the next request", async () => {
    const server = await harnesses.sharedServer();
    const home = tempDir("home-");
    const cwd = tempDir("cwd-");
    const first = await harnesses.start({ server, home, cwd });
    server.enqueue(text("My name is Scripted."));
    await first.session.send("what is your name?");
    first.session.shutdown();

    const second = await harnesses.start({ server, home, cwd, resumeId: first.session.id });
    server.enqueue(text("You asked my name."));
    await second.session.send("what did I ask?");
    const messages = server.completionRequests[1]?.body.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(messages[2]?.content).toBe("My name is Scripted.");
    expect(second.ofType("session.resume")[0]?.data).toMatchObject({ eventCount: expect.any(Number) });
    expect(second.ofType("assistant.turn_start")[0]?.data.turnId).toBe("2");
  });

  it("closes a tool call that never got a result, so the next request is valid", async () => {
    const server = await harnesses.sharedServer();
    const home = tempDir("home-");
    const cwd = tempDir("cwd-");
    const first = await harnesses.start({ server, home, cwd });
    server.enqueue(toolCall("view", { path: cwd }), text("listed"));
    await first.session.send("look");
    first.session.shutdown();
    // Simulate a crash between the tool call and its result: drop the tail of the log after the request.
    const file = first.store.eventsFileOf(first.session.id);
    const { readFileSync, writeFileSync } = await import("node:fs");
    const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
    const cut = lines.findIndex((line) => line.includes('"tool.execution_start"'));
    writeFileSync(file, lines.slice(0, cut + 1).join("\n") + "\n" + lines[cut + 1]?.slice(0, 20));
    appendFileSync(file, "\0".repeat(1024));

    const second = await harnesses.start({ server, home, cwd, resumeId: first.session.id });
    expect(second.resume).toMatchObject({ repairedToolCalls: 1, skippedLines: 1 });
    const repaired = second.ofType("tool.execution_complete")[0];
    expect(repaired?.data).toMatchObject({ success: false, error: { code: "interrupted" } });
    server.enqueue(text("continuing"));
    const result = await second.session.send("go on");
    expect(result.outcome).toBe("completed");
    const messages = server.completionRequests.at(-1)?.body.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
    // The repair is written to the log, so a third open finds nothing to repair.
    second.session.shutdown();
    const third = await harnesses.start({ server, home, cwd, resumeId: first.session.id });
    expect(third.resume?.repairedToolCalls).toBe(0);
  });

  it("restores the mode the session was in", async () => {
    const server = await harnesses.sharedServer();
    const home = tempDir("home-");
    const first = await harnesses.start({ server, home, mode: "autopilot" });
    first.session.shutdown();
    const second = await harnesses.start({ server, home, resumeId: first.session.id, cwd: first.cwd });
    expect(second.session.mode).toBe("autopilot");
  });
});
