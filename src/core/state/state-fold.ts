/**
 * A session's state kept current: the reducer run over every event as the sink emits it (an internal
 * listener, so every subscriber sees the state that includes its event), from the fold of the log on resume.
 */
import type { SessionEvent } from "../../protocol/events/index.js";
import { reduceSessionState } from "./reduce-session-state.js";
import { beginProcess, initialSessionState, type ProcessFacts, type SessionState } from "./session-state.js";

export class SessionStateFold {
  private current: SessionState;

  constructor(initial: SessionState) {
    this.current = initial;
  }

  get state(): SessionState {
    return this.current;
  }

  /** This process's own facts, once it has them (before its first event). */
  beginProcess(facts: ProcessFacts): void {
    this.current = beginProcess(this.current, facts);
  }

  readonly apply = (event: SessionEvent): void => {
    this.current = reduceSessionState(this.current, event);
  };
}

/** The state a sequence of events leaves (a log, on resume). */
export function foldEvents(events: readonly SessionEvent[], initial: SessionState = initialSessionState(0)): SessionState {
  let state = initial;
  for (const event of events) state = reduceSessionState(state, event);
  return state;
}
