/**
 * The transcript of a resumed session, rebuilt from its log with the same reducer as live events. Only the
 * tail is shown: a long session starts with its latest exchanges, and a line says how much came before.
 */
import type { SessionEvent } from "../../protocol/events/index.js";
import { reduceTranscript } from "./reduce-transcript.js";
import type { TranscriptState } from "./transcript-types.js";

export const RESUME_TAIL_ITEMS = 400;

export function transcriptFromLog(events: readonly SessionEvent[], initial: TranscriptState, tail = RESUME_TAIL_ITEMS): TranscriptState {
  let state = initial;
  for (const event of events) state = reduceTranscript(state, event, Date.parse(event.timestamp) || 0);
  // Whatever was in flight when the log ended is over now.
  state = { ...state, live: undefined, liveReasoning: undefined, running: [], permissions: [], busy: false, turnStartedAt: undefined };
  if (state.items.length <= tail) return state;
  const hidden = state.items.length - tail;
  return {
    ...state,
    items: [
      { kind: "notice", id: "resume-earlier", level: "info", text: `… ${hidden} earlier items of this session are not shown (they are in its events.jsonl).` },
      ...state.items.slice(-tail),
    ],
  };
}
