/**
 * readEventLogTailWith (the early preview's read of a resumed log) reads the last 64 KB when they hold the
 * last exchange's prompt and no rewind, else the 256 KB tail: from that prompt on, its events are always those
 * of readEventLogTail.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { readEventLogTail, readEventLogTailWith } from "../../src/session/event-log-tail.js";
import { isPromptOfThePerson } from "../../src/ui/print-past.js";
import { tempDir } from "../support/temp-dirs.js";

let counter = 0;
const event = (type: string, data: Record<string, unknown>): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data }) as unknown as SessionEvent;

/** An exchange whose tool output is `outputBytes` long. */
const exchange = (n: number, outputBytes = 2_000): SessionEvent[] => [
  event("user.message", { content: `question ${n}` }),
  event("tool.execution_complete", { toolCallId: `c${n}`, success: true, result: { content: "x".repeat(outputBytes) } }),
  event("assistant.message", { messageId: `m${n}`, content: `Answer ${n}.` }),
];

function logOf(events: SessionEvent[]): string {
  const file = path.join(tempDir("event-log-tail"), "events.jsonl");
  writeFileSync(file, `${events.map((value) => JSON.stringify(value)).join("\n")}\n`);
  return file;
}

/** The events from the last prompt of the person's on. */
const lastExchange = (events: SessionEvent[]) => events.slice(events.findLastIndex(isPromptOfThePerson));

describe("the early preview's read of a log's tail", () => {
  it.each([
    ["a short last exchange", [...Array.from({ length: 200 }, (_, n) => exchange(n)).flat()]],
    ["a last exchange longer than 64 KB", [...Array.from({ length: 200 }, (_, n) => exchange(n)).flat(), ...exchange(200, 100_000)]],
    [
      "a rewind near the end",
      (() => {
        const past = Array.from({ length: 200 }, (_, n) => exchange(n)).flat();
        const target = past.at(-6) as SessionEvent;
        return [...past, event("session.snapshot_rewind", { upToEventId: target.id, eventsRemoved: 6 }), ...exchange(300)];
      })(),
    ],
    [
      "a rewind back over the last 64 KB",
      (() => {
        const past = Array.from({ length: 200 }, (_, n) => exchange(n)).flat();
        const target = past.at(-90) as SessionEvent;
        return [...past, event("session.snapshot_rewind", { upToEventId: target.id, eventsRemoved: 90 })];
      })(),
    ],
    ["no prompt at all", Array.from({ length: 200 }, (_, n) => exchange(n).slice(1)).flat()],
  ])("with %s gives readEventLogTail's last exchange", (_name, events) => {
    const file = logOf(events);
    const full = readEventLogTail(file);
    const read = readEventLogTailWith(file, isPromptOfThePerson);
    if (full.some(isPromptOfThePerson)) expect(lastExchange(read)).toEqual(lastExchange(full));
    else expect(read).toEqual(full);
  });

  it("reads less than the whole tail when the last exchange is short", () => {
    const file = logOf(Array.from({ length: 200 }, (_, n) => exchange(n)).flat());
    expect(readEventLogTailWith(file, isPromptOfThePerson).length).toBeLessThan(readEventLogTail(file).length);
  });
});
