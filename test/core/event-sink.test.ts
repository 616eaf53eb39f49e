import { describe, expect, it } from "vitest";
import { EventSink } from "../../src/core/event-sink.js";
import type { SessionEvent } from "../../src/protocol/events/index.js";

describe("the event sink's parentId chain", () => {
  it("stops writing at a failed write: the event is still told, the failure reported once, nothing unwritten is pointed at", () => {
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
    const told: string[] = [];
    sink.subscribe((event) => told.push((event.data as { message?: string }).message ?? ""));
    const failures: string[] = [];
    sink.onLogFailure((error) => failures.push(error.message));
    sink.emit("session.error", { errorType: "a", message: "first" });
    failNext = true;
    expect(() => sink.emit("session.error", { errorType: "b", message: "lost" })).not.toThrow();
    expect(failures).toEqual(["disk full"]);
    expect(sink.logFailure?.message).toBe("disk full");
    // The disk may have room again: still nothing is written, since the log would now have a hole.
    const third = sink.emit("session.error", { errorType: "c", message: "third" });
    expect(written.map((event) => event.data)).toMatchObject([{ message: "first" }]);
    expect(third.parentId).toBe(written[0]?.id);
    expect(told).toEqual(["first", "lost", "third"]);
    sink.logFailed(new Error("again"));
    expect(failures).toEqual(["disk full"]);
  });
});
