/**
 * Keys that act on the whole app (lowest priority: the composer and dialogs see keys first).
 *   Ctrl+C: stop the turn when busy; otherwise "press again to exit" within 2 s.
 *   Ctrl+D: exit (the composer lets it through only when the prompt is empty).
 *   Esc: stop the turn.   Shift+Tab: next mode.   Ctrl+T: show/hide reasoning.   Ctrl+O: last tool's output.
 */
import { useEffect, useRef, useState } from "react";
import { MODE_CYCLE } from "../../core/modes.js";
import type { SessionHost } from "../session-host.js";
import { Priority } from "../terminal/input-bus.js";
import { useKeys } from "../terminal/input-context.js";
import { isKey } from "../terminal/keys.js";

export const EXIT_WINDOW_MS = 2000;

export function useAppKeys(options: {
  host: SessionHost;
  exit(): void;
  toggleReasoning(): void;
  toggleToolOutput(): void;
}): { exitHint: string | undefined } {
  const [exitPending, setExitPending] = useState(false);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  useKeys((key) => {
    const { host } = options;
    // The engine, not the last rendered frame, knows whether a turn is running right now.
    const busy = host.ready && host.session.busy;
    if (isKey(key, "ctrl+c")) {
      if (busy) {
        host.session.interrupt();
        return true;
      }
      if (exitPending) {
        options.exit();
        return true;
      }
      setExitPending(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setExitPending(false), EXIT_WINDOW_MS);
      return true;
    }
    if (isKey(key, "ctrl+d")) {
      options.exit();
      return true;
    }
    if (key.name === "escape" && !key.ctrl && !key.meta) {
      if (busy) host.session.interrupt();
      return true;
    }
    if (key.name === "tab" && key.shift) {
      if (!host.ready) return true;
      const next = MODE_CYCLE[(MODE_CYCLE.indexOf(host.session.mode) + 1) % MODE_CYCLE.length] ?? "interactive";
      host.session.setMode(next);
      return true;
    }
    if (isKey(key, "ctrl+t")) {
      options.toggleReasoning();
      return true;
    }
    if (isKey(key, "ctrl+o")) {
      options.toggleToolOutput();
      return true;
    }
    return false;
  }, Priority.app);

  return { exitHint: exitPending ? "Press Ctrl+C again to exit" : undefined };
}
