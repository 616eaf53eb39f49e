import { readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { EventLogWriter } from "../../src/session/event-log-writer.js";
import { parseEventLog, readEventLog } from "../../src/session/event-log-reader.js";
import { serializeEventLine } from "../../src/session/serialize.js";
import { tempDir } from "../support/engine-harness.js";

function realpathOrNull(link: string): string | null {
  try {
    return realpathSync(link);
  } catch {
    return null;
  }
}

let counter = 0;
function event(type: string, data: Record<string, unknown>): SessionEvent {
  counter++;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, "0")}`,
    timestamp: new Date().toISOString(),
    parentId: null,
    type,
    data,
  } as unknown as SessionEvent;
}

const hostile = [
  "line one\nline two\r\nthree",
  "separators \u2028 and \u2029 inside",
  "\u001b[31mred\u001b[0m and \u001b]8;;http://x\u0007link",
  "a lone surrogate \ud800 here",
  'quotes " and backslashes \\ and a NUL \u0000 character',
];

describe("the event log", () => {
  it("round-trips hostile strings and a 2 MB tool output, one event per physical line", () => {
    const file = path.join(tempDir("log-"), "events.jsonl");
    const writer = new EventLogWriter(file);
    const big = "x".repeat(2 * 1024 * 1024 - 7) + "\n\u2028end";
    const written = [
      ...hostile.map((content) => event("user.message", { content })),
      event("tool.execution_complete", { toolCallId: "c1", success: true, result: { content: big } }),
    ];
    for (const item of written) writer.append(item);
    writer.close();
    const raw = readFileSync(file, "utf8");
    expect(raw.split("\n").filter((line) => line !== "")).toHaveLength(written.length);
    expect(raw).not.toContain("\u2028");
    expect(raw).not.toContain("\u2029");
    const log = readEventLog(file);
    expect(log.skipped).toEqual([]);
    expect(log.events.map((item) => item.data)).toEqual(written.map((item) => JSON.parse(JSON.stringify(item.data))));
    const last = log.events.at(-1);
    expect(last?.type === "tool.execution_complete" && last.data.result?.content.length).toBe(big.length);
  });

  it("survives NUL padding in the middle and at the end", () => {
    const a = event("user.message", { content: "before" });
    const b = event("user.message", { content: "after" });
    const text = serializeEventLine(a) + "\0".repeat(150 * 1024) + serializeEventLine(b) + "\0".repeat(4096);
    const log = parseEventLog(text);
    expect(log.events.map((item) => item.type === "user.message" && item.data.content)).toEqual(["before", "after"]);
    expect(log.skipped).toEqual([]);
  });

  it("skips a cut last line and reports it, keeping every valid event", () => {
    const lines = [event("user.message", { content: "one" }), event("user.message", { content: "two" })].map(serializeEventLine).join("");
    const cut = serializeEventLine(event("user.message", { content: "three" })).slice(0, 30);
    const log = parseEventLog(lines + cut);
    expect(log.events).toHaveLength(2);
    expect(log.skipped).toEqual([{ line: 3, reason: "truncated last line" }]);
  });

  it("keeps unknown event types out of the way, skips invalid lines and invalid data", () => {
    const future = { id: "f1", timestamp: "2030-01-01T00:00:00Z", parentId: null, type: "session.hologram_started", data: { x: 1 } };
    const bad = event("assistant.turn_start", { turnId: 7 });
    const good = event("assistant.turn_start", { turnId: "1" });
    const text = [JSON.stringify(future), "this is not json", JSON.stringify({ foo: 1 }), JSON.stringify(bad), JSON.stringify(good)].join("\n");
    const log = parseEventLog(text);
    expect(log.unknownEvents).toBe(1);
    expect(log.events.map((item) => item.id)).toEqual([good.id]);
    expect(log.skipped.map((item) => item.reason)).toEqual(["not valid JSON", "not an event (no type or id)", "invalid data for assistant.turn_start"]);
    expect(log.lastEventId).toBe(good.id);
  });

  it("keeps fields this version does not know", () => {
    const withExtra = event("user.message", { content: "hi", futureField: { nested: true } });
    const log = parseEventLog(serializeEventLine(withExtra));
    expect((log.events[0]?.data as Record<string, unknown>).futureField).toEqual({ nested: true });
  });

  describe("the writer opens a log on a whole event", () => {
    const kept = serializeEventLine(event("user.message", { content: "kept" }));
    const whole = serializeEventLine(event("user.message", { content: "whole but unfinished" }));
    const long = `{"id":"x","type":"tool.execution_complete","data":{"result":"${"z".repeat(200 * 1024)}`;
    it.each([
      ["a torn last line (no newline, not JSON)", `${kept}{"id":"x","type":"user.mes`, ["kept"]],
      ["a torn line an older version ended with a newline", `${kept}{"id":"x","type":"user.mes\n`, ["kept"]],
      ["a torn line longer than the scan block", kept + long, ["kept"]],
      ["NUL padding after the last event", kept + "\0".repeat(5000), ["kept"]],
      ["a torn line then NUL padding", `${kept}{"id":"x"${"\0".repeat(300)}`, ["kept"]],
      ["a file that is only a torn line", '{"id":"x","ty', []],
      ["a whole last event without its newline (kept, newline added)", kept + whole.slice(0, -1), ["kept", "whole but unfinished"]],
      ["an empty last line", `${kept}\n`, ["kept"]],
      ["an empty file", "", []],
    ])("%s", (_name, content, before) => {
      const file = path.join(tempDir("log-"), "events.jsonl");
      writeFileSync(file, content);
      const writer = new EventLogWriter(file);
      writer.append(event("user.message", { content: "appended" }));
      writer.close();
      const raw = readFileSync(file, "utf8");
      // Every line is whole: nothing torn stays behind in the middle of the log.
      expect(raw.endsWith("\n")).toBe(true);
      for (const line of raw.slice(0, -1).split("\n")) expect(() => JSON.parse(line.replace(/\0/g, ""))).not.toThrow();
      const log = readEventLog(file);
      expect(log.skipped).toEqual([]);
      expect(log.events.map((item) => item.type === "user.message" && item.data.content)).toEqual([...before, "appended"]);
    });
  });

  it.runIf(process.platform === "linux")(
    "flushes a turn off the main thread; closed meanwhile, it keeps the descriptor until the flush returns and loses nothing",
    async () => {
      const file = path.join(tempDir("log-"), "events.jsonl");
      const writer = new EventLogWriter(file);
      const real = realpathSync(file);
      const openFds = () => readdirSync("/proc/self/fd").filter((fd) => realpathOrNull(`/proc/self/fd/${fd}`) === real).length;
      writer.append(event("user.message", { content: "the turn" }));
      const errors: Error[] = [];
      const flushed = writer.sync((error) => errors.push(error));
      writer.append(event("user.message", { content: "after the turn" }));
      writer.close();
      // The flush cannot have returned yet (its callback needs the event loop): the descriptor is still its.
      expect(openFds()).toBe(1);
      await flushed;
      expect(openFds()).toBe(0);
      expect(errors).toEqual([]);
      expect(readEventLog(file).events.map((item) => item.type === "user.message" && item.data.content)).toEqual(["the turn", "after the turn"]);
      // Closed: a later flush has nothing to do and settles at once.
      await writer.sync((error) => errors.push(error));
      expect(errors).toEqual([]);
    },
  );

  it("says which file it cannot open, and why", () => {
    const notAFolder = path.join(tempDir("log-"), "file");
    writeFileSync(notAFolder, "");
    expect(() => new EventLogWriter(path.join(notAFolder, "events.jsonl"))).toThrow(
      `Could not open the session log ${path.join(notAFolder, "events.jsonl")}: a part of the path is not a folder (ENOTDIR)`,
    );
  });

  it.runIf(process.platform === "linux")("says which file it cannot write on a full disk (/dev/full), and leaves the device alone", () => {
    const mode = statSync("/dev/full").mode;
    const writer = new EventLogWriter("/dev/full");
    expect(() => writer.append(event("user.message", { content: "no room" }))).toThrow(
      "Could not write the session log /dev/full: no space left on the device (ENOSPC)",
    );
    writer.close();
    expect(statSync("/dev/full").mode).toBe(mode);
  });

  it("never writes ephemeral events, and chains persisted parentIds", async () => {
    const { startHarness } = await import("../support/engine-harness.js");
    const { text } = await import("../support/scripted-server.js");
    const harness = await startHarness();
    try {
      harness.server.enqueue(text("streamed in pieces", { chunkSize: 3 }));
      await harness.session.send("hi");
      const log = readEventLog(harness.store.eventsFileOf(harness.session.id));
      expect(log.events.some((item) => item.ephemeral)).toBe(false);
      const raw = readFileSync(harness.store.eventsFileOf(harness.session.id), "utf8");
      expect(raw).not.toContain("message_delta");
      expect(raw).not.toContain("session.idle");
      log.events.forEach((item, index) => expect(item.parentId).toBe(index === 0 ? null : log.events[index - 1]?.id));
      // What was streamed live equals what was persisted.
      expect(log.events.map((item) => item.id)).toEqual(harness.events.filter((item) => !item.ephemeral).map((item) => item.id));
    } finally {
      await harness.close();
    }
  });
});
