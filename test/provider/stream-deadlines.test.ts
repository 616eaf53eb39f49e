/**
 * The idle limit of a streamed response (stream-deadlines.ts), on a clock the test moves: each chunk only notes
 * its time, and the one timer waits again for what is left, so a stream ends exactly when it has been quiet
 * for the limit, never earlier, however many chunks came before.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StreamDeadlines } from "../../src/provider/stream-deadlines.js";

describe("the idle limit of a streamed response", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "hrtime"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const deadlines = () => new StreamDeadlines({ idleMs: 1000, overallMs: 60_000, signal: new AbortController().signal });

  it("ends a stream that has sent nothing for the limit", () => {
    const stream = deadlines();
    vi.advanceTimersByTime(999);
    expect(stream.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(stream.signal.aborted).toBe(true);
    expect(stream.explain()?.message).toMatch(/^The model endpoint sent nothing for 1 s/);
    stream.dispose();
  });

  it("counts the quiet from the last chunk, with one timer however many chunks arrive", () => {
    const stream = deadlines();
    const armed = vi.getTimerCount();
    for (let ms = 0; ms < 5000; ms += 10) {
      vi.advanceTimersByTime(10);
      stream.onData();
    }
    expect(stream.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(armed);
    vi.advanceTimersByTime(999);
    expect(stream.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(stream.signal.aborted).toBe(true);
    stream.dispose();
  });

  it("says the connection was kept alive when only keep-alives came", () => {
    const stream = deadlines();
    vi.advanceTimersByTime(600);
    stream.onData();
    vi.advanceTimersByTime(500);
    stream.onBytes();
    vi.advanceTimersByTime(499);
    expect(stream.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(stream.signal.aborted).toBe(true);
    expect(stream.explain()?.message).toMatch(/no data for 1 s, only keep-alives/);
    stream.dispose();
  });

  it("leaves no timer behind once disposed", () => {
    const stream = deadlines();
    vi.advanceTimersByTime(1500 - 1);
    stream.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
