/**
 * The fleet view in the whole app over the real engine: `/fleet <task>` shows "Fleet deployed", the todo
 * panel follows the todos live (each with its agent) until all are done, and the orchestration prompt is
 * not echoed as if the person had typed it. `--fleet` turns the first typed prompt into /fleet.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Bootstrap } from "../../src/cli/bootstrap.js";
import { defaultCliOptions } from "../../src/cli/default-options.js";
import { TuiSessionHost } from "../../src/cli/tui-session-host.js";
import { useAppHarness } from "../support/app-harness.js";
import { fleetModel } from "../support/fleet-model.js";
import { TestSessionHost } from "../support/tui-host.js";

const app = useAppHarness();

describe("the fleet view", () => {
  it("shows Fleet deployed and a live todo panel with each todo's agent, ending all done", async () => {
    let current: TestSessionHost | undefined;
    let release: () => void = () => undefined;
    const holdDone = new Promise<void>((resolve) => (release = resolve));
    const model = fleetModel({ databaseFile: () => (current?.ready ? path.join(current.session.dir, "session.db") : undefined), holdDone });
    const { host, tui } = await app.start({ server: { responder: model.responder } });
    current = host;
    tui.bus.type("/fleet Build the two parts and join them");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("◆ Fleet deployed: Build the two parts and join them"));
    // Live: both agents at work (the model holds them there until the panel has shown it), the join waiting.
    const working = await tui.waitForFrame((frame) => frame.includes("◐ Write part A · part-a-1") && frame.includes("◐ Write part B · part-b-1"));
    expect(working).toContain("Todos · 2 in progress · 1 pending");
    expect(working).toContain("○ Join A and B");
    release();
    const done = await tui.waitForFrame((frame) => frame.includes("Todos · 3 done") && frame.includes("All 3 todos are done."), 30_000);
    expect(done).toContain("✓ Write part A · part-a-1");
    expect(done).toContain("✓ Write part B · part-b-1");
    expect(done).toContain("✓ Join A and B · join-ab-1");
    expect(done).toContain("› /fleet Build the two parts and join them");
    expect(done).not.toContain("You are now in fleet mode");
    expect(model.parallel).toBe(true);
  });
});

describe("--fleet in the TUI", () => {
  it("turns the first prompt into /fleet, and only the first", () => {
    const fleetHost = new TuiSessionHost({} as Bootstrap, { ...defaultCliOptions(), fleet: true });
    expect(fleetHost.prepareInput("build it")).toBe("/fleet build it");
    expect(fleetHost.prepareInput("and more")).toBe("and more");
    const plain = new TuiSessionHost({} as Bootstrap, defaultCliOptions());
    expect(plain.prepareInput("build it")).toBe("build it");
    const command = new TuiSessionHost({} as Bootstrap, { ...defaultCliOptions(), fleet: true });
    expect(command.prepareInput("/model")).toBe("/model");
  });
});
