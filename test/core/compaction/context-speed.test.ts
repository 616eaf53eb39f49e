/** /context answers from memory: no model call, and within 50 ms on a resumed 10,002-event session. */
import { describe, expect, it } from "vitest";
import { timeContextCommand } from "../../../bench/context.js";
import { cpuTimer } from "../../support/cpu-time.js";

describe("/context on a long session", () => {
  it("answers in ≤ 50 ms without a model call", async () => {
    // In CPU time: what the command costs, which other work on a shared machine does not stretch.
    const figure = await timeContextCommand(7, cpuTimer());
    expect(figure.events).toBe(10_002);
    expect(figure.median).toBeLessThanOrEqual(50);
  }, 60_000);
});
