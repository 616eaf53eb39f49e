/** /context answers from memory: no model call, and within 50 ms on a resumed 10,002-event session. */
import { describe, expect, it } from "vitest";
import { timeContextCommand } from "../../../bench/context.js";

describe("/context on a long session", () => {
  it("answers in ≤ 50 ms without a model call", async () => {
    const figure = await timeContextCommand(7);
    expect(figure.events).toBe(10_002);
    // The median is the figure; the machine is shared, so a single run may be slowed by others' work.
    expect(figure.median).toBeLessThanOrEqual(50);
  }, 60_000);
});
