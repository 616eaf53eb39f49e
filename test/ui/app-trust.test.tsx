/** Issue 7's TUI items with the real engine behind the app: the `!command` stop hint and the /model picker. */
import { describe, expect, it } from "vitest";
import type { ScriptedServerOptions } from "../support/scripted-server.js";
import { useAppHarness } from "../support/app-harness.js";

const app = useAppHarness();
const startApp = (server: ScriptedServerOptions = {}) => app.start({ server });

describe("a running !command", () => {
  it("shows how to stop it, and Esc stops it", async () => {
    const { tui } = await startApp();
    tui.bus.type("!sleep 30");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("! sleep 30") && frame.includes("esc to interrupt") && frame.includes("Esc interrupts"));
    tui.bus.press("escape");
    const done = await tui.waitForFrame((frame) => frame.includes("✗") || frame.includes("✓"));
    expect(done).not.toContain("esc to interrupt");
  });
});

describe("/model", () => {
  const models = ["alpha-large", "alpha-small", "beta-coder"];

  it("lists the endpoint's models, takes the keys typed after it opens, and sets the chosen one", async () => {
    const { host, tui } = await startApp({ models });
    tui.bus.type("/model");
    tui.bus.press("enter");
    // Typed straight after Enter, before the list has arrived: they go to the picker's filter.
    tui.bus.type("coder");
    const frame = await tui.waitForFrame((text) => text.includes("❯ beta-coder"));
    expect(frame).not.toContain("alpha-large");
    tui.bus.press("enter");
    await tui.waitForFrame((text) => !text.includes("Select a model"));
    expect(host.session.model).toBe("beta-coder");
    expect(tui.frame()).not.toContain("/modelcoder");
  });

  it("refuses a name the endpoint does not list", async () => {
    const { host, tui } = await startApp({ models });
    const before = host.session.model;
    tui.bus.type("/model made-up-model");
    tui.bus.press("enter");
    const frame = await tui.waitForFrame((text) => text.includes('Unknown model "made-up-model"'));
    expect(frame).toContain("alpha-large");
    expect(host.session.model).toBe(before);
    tui.bus.type("/model alpha-small");
    tui.bus.press("enter");
    await tui.waitForFrame((text) => text.includes("Model set to alpha-small."));
    expect(host.session.model).toBe("alpha-small");
  });

  it("accepts a typed name when the endpoint cannot list models, and says so", async () => {
    const { host, tui } = await startApp({ models: null });
    tui.bus.type("/model");
    tui.bus.press("enter");
    await tui.waitForFrame((text) => text.includes("Could not list models"));
    tui.bus.type("my-local-model");
    await tui.waitForFrame((text) => text.includes('Use "my-local-model"'));
    tui.bus.press("enter");
    await tui.waitForFrame((text) => !text.includes("Select a model"));
    expect(host.session.model).toBe("my-local-model");
  });
});
