/**
 * Renders an Ink component for a test with our input bus, so keys and pastes go through the same routing as
 * in the terminal. `frame()` is the last frame without ANSI codes; `waitForFrame` waits until a frame matches.
 */
import { render } from "ink-testing-library";
import type { ReactElement } from "react";
import stripAnsi from "strip-ansi";
import { InputBus } from "../../src/ui/terminal/input-bus.js";
import { InputContext } from "../../src/ui/terminal/input-context.js";

export interface TuiHarness {
  bus: InputBus;
  frame(): string;
  rawFrame(): string;
  frames(): string[];
  /** Every write to the fake stdout as it was, escape sequences included. */
  rawFrames(): string[];
  rerender(node: ReactElement): void;
  unmount(): void;
  /** Resolves once React and Ink have processed what is pending. */
  flush(): Promise<void>;
  /** Resolves when a frame satisfies the predicate (or rejects after `timeoutMs` with the last frame). */
  waitForFrame(predicate: (frame: string) => boolean, timeoutMs?: number): Promise<string>;
}

export function renderTui(node: ReactElement, bus = new InputBus()): TuiHarness {
  const wrap = (child: ReactElement) => <InputContext.Provider value={bus}>{child}</InputContext.Provider>;
  const instance = render(wrap(node));
  const frame = () => stripAnsi(instance.lastFrame() ?? "");
  const flush = async () => {
    for (let index = 0; index < 3; index++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return {
    bus,
    frame,
    rawFrame: () => instance.lastFrame() ?? "",
    frames: () => instance.frames.map((item) => stripAnsi(item)),
    rawFrames: () => [...instance.frames],
    rerender: (next) => instance.rerender(wrap(next)),
    unmount: () => instance.unmount(),
    flush,
    async waitForFrame(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await flush();
        const current = frame();
        if (predicate(current)) return current;
        if (Date.now() > deadline) throw new Error(`no frame matched within ${timeoutMs} ms; last frame:\n${current}`);
        await new Promise<void>((resolve) => setTimeout(resolve, 5));
      }
    },
  };
}
