/**
 * Input is painted before background progress. Ink paints through a throttle (one frame per ~33 ms at
 * maxFps 30): while ten background agents start, their progress keeps that throttle busy, so a key's echo
 * waited for the frame's end behind them. The first commit after input is painted at once, with Ink's own
 * immediate paint (the one <Static> uses); every other commit still goes through the throttle, so progress
 * is still drawn at most once a frame.
 */
import type { DOMElement } from "ink";

export interface InputPaint {
  /** Input arrived: the next commit (the one React makes for it) is painted at once. */
  input(): void;
  /** Puts Ink's own paint back. */
  restore(): void;
}

/** Takes over the paint of the Ink tree that `node` belongs to; undefined when that tree has no throttled paint to bypass. */
export function paintInputFirst(node: DOMElement): InputPaint | undefined {
  let root = node;
  while (root.parentNode) root = root.parentNode;
  const throttled = root.onRender;
  const immediate = root.onImmediateRender;
  if (!throttled || !immediate || throttled === immediate) return undefined;
  // A key that changes nothing makes no commit: then the next commit, whatever it is, is painted at once,
  // one paint ahead of the throttle, which is harmless (and keeps this free of timers).
  let pending = false;
  root.onRender = () => {
    if (!pending) return throttled();
    pending = false;
    immediate();
  };
  return {
    input() {
      pending = true;
    },
    restore() {
      root.onRender = throttled;
    },
  };
}
