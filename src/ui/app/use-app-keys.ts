/**
 * Keys that act on the whole app (lowest priority: the composer and dialogs see keys first).
 *   Ctrl+C: stop the turn when busy (a second press within 2 s while it is still busy exits: the stop is stuck);
 *   otherwise "press again to exit" within 2 s.
 *   Ctrl+D: exit (the composer lets it through only when the prompt is empty).
 *   Esc: stop the turn.   Shift+Tab: next mode.   Ctrl+T: show/hide reasoning.   Ctrl+O: print the last tool's output.
 *   Ctrl+Y: print the last plan put up for review.
 *   Ctrl+X then B: move the running sync subagent to the background (Copilot's chord; the second key is
 *   taken before the composer sees it, so the B is never typed; any other key is handled as if Ctrl+X had not been pressed).
 */
import { useEffect, useRef, useState } from "react";
import type { AgentMode } from "../../protocol/events/index.js";
import { MODE_CYCLE } from "../../core/index.js";
import type { SessionHost } from "../session-host.js";
import { Priority } from "../terminal/input-bus.js";
import { useKeys } from "../terminal/input-context.js";
import { isKey } from "../terminal/keys.js";

export const EXIT_WINDOW_MS = 2000;

export function useAppKeys(options: {
  host: SessionHost;
  /** Before the session is open, a mode change is remembered here and applied when it opens. */
  setPendingMode(mode: AgentMode): void;
  currentMode: AgentMode;
  exit(): void;
  toggleReasoning(): void;
  showToolOutput(): void;
  showPlan(): void;
  moveAgentToBackground(): void;
}): { exitHint: string | undefined } {
  const [exitPending, setExitPendingState] = useState(false);
  // Read by the key handler: two presses can arrive before React renders the first one's state.
  const exitPendingNow = useRef(false);
  const setExitPending = (pending: boolean) => {
    exitPendingNow.current = pending;
    setExitPendingState(pending);
  };
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  /** When Ctrl+C last asked a busy turn to stop: a second press while it is still busy forces the exit. */
  const interruptedAt = useRef(0);
  useEffect(() => () => clearTimeout(timer.current), []);

  // Ctrl+X starts a chord: a chord key after it is the chord's, whoever would have taken it otherwise.
  const [chordPending, setChordPending] = useState(false);
  const chordNow = useRef(false);
  useKeys((key) => {
    if (chordNow.current) {
      chordNow.current = false;
      setChordPending(false);
      if (isKey(key, "b") || isKey(key, "ctrl+b")) {
        options.moveAgentToBackground();
        return true;
      }
      // Not a chord key: handle it as if Ctrl+X had not been pressed (typed, or its own shortcut).
      return false;
    }
    if (!isKey(key, "ctrl+x")) return false;
    chordNow.current = true;
    setChordPending(true);
    return true;
  }, Priority.dialog + 2);

  // Any other key cancels a pending "press Ctrl+C again" (it looks at every key first and consumes none).
  useKeys((key) => {
    if (exitPendingNow.current && !isKey(key, "ctrl+c")) setExitPending(false);
    return false;
  }, Priority.dialog + 1);

  useKeys((key) => {
    const { host } = options;
    // The engine, not the last rendered frame, knows whether a turn is running right now.
    const busy = host.ready && host.session.state.busy;
    if (isKey(key, "ctrl+c")) {
      if (busy) {
        if (Date.now() - interruptedAt.current < EXIT_WINDOW_MS) options.exit(); // the stop is stuck: leave anyway
        interruptedAt.current = Date.now();
        host.session.dispatch({ type: "interrupt" });
        return true;
      }
      if (exitPendingNow.current) {
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
      if (busy) host.session.dispatch({ type: "interrupt" });
      return true;
    }
    if (key.name === "tab" && key.shift) {
      const current = host.ready ? host.session.state.mode : options.currentMode;
      const next = MODE_CYCLE[(MODE_CYCLE.indexOf(current) + 1) % MODE_CYCLE.length] ?? "interactive";
      if (host.ready) host.session.dispatch({ type: "set_mode", mode: next });
      else options.setPendingMode(next);
      return true;
    }
    if (isKey(key, "ctrl+t")) {
      options.toggleReasoning();
      return true;
    }
    if (isKey(key, "ctrl+y")) {
      options.showPlan();
      return true;
    }
    if (isKey(key, "ctrl+o")) {
      options.showToolOutput();
      return true;
    }
    return false;
  }, Priority.app);

  return { exitHint: exitPending ? "Press Ctrl+C again to exit" : chordPending ? "Ctrl+X: B moves the running agent to the background" : undefined };
}
