import { describe, expect, it } from "vitest";
import { EventSink } from "../../src/core/event-sink.js";
import type { SessionEvent } from "../../src/protocol/events/index.js";

describe("the event sink's parentId chain", () => {
  it("never points at an event whose write failed", () => {
    const written: SessionEvent[] = [];
    let failNext = false;
    const sink = new EventSink({
      append: (event) => {
        if (failNext) {
          failNext = false;
          throw new Error("disk full");
        }
        written.push(event);
      },
    });
    sink.emit("session.error", { errorType: "a", message: "first" });
    failNext = true;
    expect(() => sink.emit("session.error", { errorType: "b", message: "lost" })).toThrow("disk full");
    sink.emit("session.error", { errorType: "c", message: "third" });
    expect(written.map((event) => event.data)).toMatchObject([{ message: "first" }, { message: "third" }]);
    expect(written[1]?.parentId).toBe(written[0]?.id);
  });
});
