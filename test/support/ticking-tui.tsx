/** Rendering components that tick on an interval (spinners, elapsed times) with the intervals under the test's control. */
import type { ReactElement } from "react";
import { afterEach, beforeEach, vi } from "vitest";
import { renderTui, type TuiHarness } from "./render-tui.js";

/**
 * Fakes only setInterval/clearInterval for each test (React and Ink keep their real scheduling, so flush()
 * still works) and unmounts what the returned function rendered after it.
 */
export function useTickingTui(): (node: ReactElement) => TuiHarness {
  let tui: TuiHarness | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  });
  afterEach(() => {
    tui?.unmount();
    tui = undefined;
    vi.useRealTimers();
  });
  return (node) => (tui = renderTui(node));
}
