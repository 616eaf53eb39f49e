/**
 * How often the whole app is painted when many store updates arrive (ten background agents starting and
 * streaming): through Ink's frame throttle (30 fps, as run-tui.tsx asks), not once per update. Ink paints at
 * once, outside its throttle, whenever its <Static> box is committed with new props; an app that re-rendered
 * <Static> on every store update got an immediate full repaint for each one. A key, though, is painted at once
 * (src/ui/terminal/paint-input-first.ts): its echo does not wait behind the agents' progress.
 *
 * Rendered with Ink's own render() to a fake terminal (ink-testing-library renders in debug mode, which has
 * no throttle at all).
 */
import { PassThrough } from "node:stream";
import type { DOMElement } from "ink";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { MemoryPromptHistory } from "../../src/session/prompt-history.js";
import type { SessionHost } from "../../src/ui/session-host.js";
import { TranscriptStore } from "../../src/ui/state/transcript-store.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";
import { InputBus } from "../../src/ui/terminal/input-bus.js";
import { InputContext } from "../../src/ui/terminal/input-context.js";
import { paintInputFirst, type InputPaint } from "../../src/ui/terminal/paint-input-first.js";
import { plainTheme } from "../../src/ui/theme.js";
import { FakeTerminal } from "../support/fake-terminal.js";

// As the real command loads the TUI (cli/interactive.ts): Ink must not take this run for CI and hold its
// frames. Ink reads CI once, when it is first imported, so it and the app are imported after this (an
// import statement would be hoisted above it).
process.env.CI = "0";
const { render } = await import("ink");
const { App } = await import("../../src/ui/app/app.js");

let counter = 0;
const event = (type: string, data: Record<string, unknown>, agentId?: string): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data, ...(agentId ? { agentId } : {}) }) as unknown as SessionEvent;

const host = {
  ready: false,
  get session(): never {
    throw new Error("not open");
  },
  history: [],
  instructionFiles: [],
  cwd: "/work",
  startNew: async () => undefined,
  switchTo: async () => undefined,
  listSessions: async () => [],
  onSwitch: () => () => undefined,
  listFiles: async () => [],
} satisfies SessionHost & { listFiles(query: string): Promise<string[]> };

const nextMacrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

let cleanup: (() => void) | undefined;
afterEach(() => {
  vi.useRealTimers();
  cleanup?.();
  cleanup = undefined;
});

/** The app in Ink's own render() on a fake terminal, one background agent running; `painted.count` counts Ink's paints. */
async function appWithOneAgent(options: { bus?: InputBus; boxRef?: (node: DOMElement | null) => void } = {}) {
  const store = new TranscriptStore(initialTranscript({ mode: "interactive", model: "m" }));
  const stdout = new FakeTerminal(100, 40);
  const stdin = new PassThrough() as unknown as NodeJS.ReadStream;
  const painted = { count: 0 };
  const props = { host, store, theme: plainTheme, history: new MemoryPromptHistory(), listFiles: async () => [], version: "test", refreshKey: 0 };
  const instance = render(
    <InputContext.Provider value={options.bus ?? new InputBus()}>
      <App {...props} exit={() => undefined} requestReprint={() => undefined} {...(options.boxRef ? { boxRef: options.boxRef } : {})} />
    </InputContext.Provider>,
    { stdout: stdout as unknown as NodeJS.WriteStream, stdin, exitOnCtrlC: false, patchConsole: false, maxFps: 30, onRender: () => painted.count++ },
  );
  cleanup = () => instance.unmount();
  store.push(
    event("subagent.started", {
      toolCallId: "call_1",
      agentName: "explore",
      agentDisplayName: "Explore",
      agentDescription: "streams",
      executionMode: "background",
    }),
  );
  store.flush();
  await stdout.waitFor("Background · 1 running");
  return { store, stdout, painted };
}

describe("painting the app while many updates arrive", () => {
  it("paints a burst of store updates through Ink's throttle, not once per update", async () => {
    const { store, stdout, painted } = await appWithOneAgent();
    // Each update is committed on its own (as events of different frames are), one macrotask apart.
    const updates = 12;
    painted.count = 0;
    const started = performance.now();
    for (let index = 1; index <= updates; index++) {
      store.push(event("assistant.usage", { model: "m", inputTokens: 0, outputTokens: index, parentToolCallId: "call_1" }, "explore-1"));
      store.flush();
      await nextMacrotask();
    }
    const elapsed = performance.now() - started;
    const total = (updates * (updates + 1)) / 2;
    await stdout.waitFor(`${total} tokens`);

    // A leading paint, one per 33 ms frame meanwhile, and the trailing one; never one per update.
    expect(painted.count).toBeLessThan(updates);
    expect(painted.count).toBeLessThanOrEqual(2 + Math.ceil(elapsed / 33));
  });

  for (const inputFirst of [true, false]) {
    it(
      inputFirst
        ? "paints a key's echo at once while the agents' progress waits for its frame"
        : "without input first, a key's echo waits for the frame like the progress",
      async () => {
        const bus = new InputBus();
        let inputPaint: InputPaint | undefined;
        const boxRef = (node: DOMElement | null) => {
          if (node && inputFirst) inputPaint ??= paintInputFirst(node);
        };
        const stopObserving = bus.observe(() => inputPaint?.input());
        const { store, stdout } = await appWithOneAgent({ bus, boxRef });
        const unmount = cleanup;
        cleanup = () => {
          stopObserving();
          unmount?.();
        };
        if (inputFirst) expect(inputPaint).toBeDefined();

        // Ink's frame timer and clock stand still from here: only what is painted outside its throttle reaches the terminal.
        vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
        await nextMacrotask();
        // Progress painted on the frame's leading edge, then more progress, which waits for the frame's end.
        store.push(event("assistant.usage", { model: "m", inputTokens: 0, outputTokens: 5, parentToolCallId: "call_1" }, "explore-1"));
        store.flush();
        await nextMacrotask();
        store.push(event("assistant.usage", { model: "m", inputTokens: 0, outputTokens: 7, parentToolCallId: "call_1" }, "explore-1"));
        store.flush();
        await nextMacrotask();
        expect(stdout.text).not.toContain("12 tokens");

        bus.type("x");
        for (let turn = 0; turn < 3; turn++) await nextMacrotask();
        if (inputFirst) expect(stdout.text).toContain("› x");
        else expect(stdout.text).not.toContain("› x");
        // The frame's end paints the rest, in both cases.
        vi.advanceTimersByTime(100);
        await stdout.waitFor("12 tokens");
        await stdout.waitFor("› x");
      },
    );
  }
});
