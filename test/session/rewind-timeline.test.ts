/**
 * The timeline fold of rewinds: which events are still part of the session, the points a rewind can go
 * to (prompts, and earlier rewinds to undo them), and how many events going back hides.
 */
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { RewindTimeline, visibleEvents } from "../../src/session/rewind/rewind-timeline.js";
import { readEventLogTail } from "../../src/session/event-log-tail.js";
import { cpuTimer } from "../support/cpu-time.js";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../support/temp-dirs.js";

let counter = 0;
const base = (id: string) => ({ id, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, counter++)).toISOString(), parentId: null });
const prompt = (id: string, content = id): SessionEvent => ({ ...base(id), type: "user.message", data: { content } });
const answer = (id: string): SessionEvent => ({ ...base(id), type: "assistant.message", data: { messageId: id, content: id } });
const childPrompt = (id: string): SessionEvent => ({ ...base(id), agentId: "child", type: "user.message", data: { content: id } });
const rewind = (id: string, upToEventId: string, scope?: "conversation" | "files" | "conversation-and-files"): SessionEvent => ({
  ...base(id),
  type: "session.snapshot_rewind",
  data: { upToEventId, eventsRemoved: 0, ...(scope ? { scope } : {}) },
});

function fold(events: SessionEvent[]): RewindTimeline {
  const timeline = new RewindTimeline();
  for (const event of events) timeline.apply(event);
  return timeline;
}

const log = [prompt("p1"), answer("a1"), childPrompt("c1"), prompt("p2"), answer("a2"), prompt("p3"), answer("a3")];

describe("RewindTimeline", () => {
  it("makes a point of each main-agent prompt, not of a subagent's", () => {
    const timeline = fold(log);
    expect(timeline.visiblePoints().map((point) => point.eventId)).toEqual(["p1", "p2", "p3"]);
    expect(timeline.visible()).toEqual(log.map((event) => event.id));
  });

  it("hides what came after the point (the point itself included) and counts it", () => {
    const timeline = fold(log);
    expect(timeline.eventsRemovedBy("p2")).toBe(4);
    expect(timeline.eventsRemovedBy("p1")).toBe(7);
    expect(timeline.eventsRemovedBy("a1")).toBeUndefined();
    timeline.apply(rewind("r1", "p2"));
    expect(timeline.visible()).toEqual(["p1", "a1", "c1", "r1"]);
    expect(timeline.visiblePoints().map((point) => [point.eventId, point.kind])).toEqual([
      ["p1", "prompt"],
      ["r1", "rewind"],
    ]);
    expect(timeline.visiblePoints()[1]?.text).toContain("to before “p2”");
  });

  it("undoes a rewind by going back to it: the view from before it returns", () => {
    const timeline = fold([...log, rewind("r1", "p2"), prompt("p4"), answer("a4")]);
    expect(timeline.eventsRemovedBy("r1")).toBe(3);
    timeline.apply(rewind("r2", "r1"));
    expect(timeline.visible()).toEqual([...log.map((event) => event.id), "r2"]);
    // Every point ever made keeps its place in the log's order, hidden ones included.
    expect(timeline.pointsFrom("p3").map((point) => point.eventId)).toEqual(["p3", "r1", "p4", "r2"]);
    expect(timeline.firstPoint()?.eventId).toBe("p1");
  });

  it("keeps the conversation for a files-only rewind, which is still a point", () => {
    const timeline = fold([...log, rewind("r1", "p2", "files")]);
    expect(timeline.visible()).toEqual([...log.map((event) => event.id), "r1"]);
    expect(timeline.visiblePoints().at(-1)?.text).toMatch(/^Rewound the files/);
  });

  it("ignores a rewind to an unknown point and ephemeral events", () => {
    const timeline = fold([...log, rewind("r1", "nowhere"), { ...base("e1"), ephemeral: true, type: "session.idle", data: {} }]);
    expect(timeline.visible()).toEqual([...log.map((event) => event.id), "r1"]);
  });

  it("visibleEvents gives the events themselves, and the log as it is when nothing was rewound", () => {
    expect(visibleEvents(log)).toEqual(log);
    const events = [...log, rewind("r1", "p3"), prompt("p5")];
    expect(visibleEvents(events).map((event) => event.id)).toEqual(["p1", "a1", "c1", "p2", "a2", "r1", "p5"]);
  });

  it("folds 10,000 events and lists the points of a long session in at most 100 ms of CPU (the fastest of 5)", () => {
    const events: SessionEvent[] = [];
    for (let index = 0; index < 2_000; index++)
      events.push(prompt(`p${index}`), answer(`a${index}`), answer(`b${index}`), answer(`c${index}`), answer(`d${index}`));
    const times: number[] = [];
    let points = 0;
    for (let run = 0; run < 5; run++) {
      // CPU time: a loaded machine stretches the wall clock of a fold, not the work it does.
      const elapsed = cpuTimer();
      const timeline = fold(events);
      timeline.apply(rewind(`r${run}`, "p1000"));
      points = timeline.visiblePoints().length;
      times.push(elapsed());
    }
    expect(Math.min(...times)).toBeLessThan(100);
    expect(points).toBe(1001);
  });

  it("the TUI's quick read of a log's tail leaves out what a rewind hid too", () => {
    const dir = tempDir("rewind-tail-");
    try {
      const file = path.join(dir, "events.jsonl");
      writeFileSync(file, [...log, rewind("r1", "p3")].map((event) => JSON.stringify(event)).join("\n") + "\n");
      expect(readEventLogTail(file).map((event) => event.id)).toEqual(["p1", "a1", "c1", "p2", "a2", "r1"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
