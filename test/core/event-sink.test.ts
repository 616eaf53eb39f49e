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

describe("the event sink's secret filter", () => {
  it("writes and tells events with registered values replaced, while its folds get them whole", async () => {
    const { SecretFilter } = await import("../../src/util/secret-filter.js");
    const secrets = new SecretFilter();
    const written: SessionEvent[] = [];
    const sink = new EventSink({ append: (event) => written.push(event) }, { secrets });
    const told: unknown[] = [];
    const folded: unknown[] = [];
    sink.subscribe((event) => told.push(event.data));
    sink.addInternal((event) => folded.push(event.data));
    sink.emit("session.info", { infoType: "x", message: "before tok-12345" });
    expect(secrets.add(["tok-12345", "tok-12345-long", "abc"])).toBe(2);
    sink.emit("session.info", { infoType: "x", message: "a tok-12345-long and tok-12345" });
    expect(written.map((event) => (event.data as { message: string }).message)).toEqual(["before tok-12345", "a ****** and ******"]);
    expect(told).toEqual(written.map((event) => event.data));
    expect(folded).toEqual([
      { infoType: "x", message: "before tok-12345" },
      { infoType: "x", message: "a tok-12345-long and tok-12345" },
    ]);
  });
});
