/**
 * The transcript of a resumed session, rebuilt from its log with the same reducer as live events. Only the
 * tail is shown: a long session starts with its latest exchanges, and a line says how much came before.
 */
import type { SessionEvent } from "../../protocol/events/index.js";
import { reduceTranscript } from "./reduce-transcript.js";
import type { TranscriptState } from "./transcript-types.js";

export const RESUME_TAIL_ITEMS = 400;
const TRIM_SLACK = 100;

export function transcriptFromLog(events: readonly SessionEvent[], initial: TranscriptState, tail = RESUME_TAIL_ITEMS): TranscriptState {
  let state = initial;
  let hidden = 0;
  for (const event of events) {
    // Only the tail is shown, so older items are dropped as the log is folded: appending copies the item
    // list, and over a 10,000-event log that copying (and its garbage) cost ~70 ms when nothing was dropped.
    // Dropped only where an exchange starts, so no item still being updated (a running tool) is lost.
    if (event.type === "user.message" && state.items.length > tail + TRIM_SLACK) {
      hidden += state.items.length - tail;
      state = { ...state, items: state.items.slice(-tail) };
    }
    // Live, a command's template follows the command as typed (command.execute, never written to the log):
    // folded from the log, the line typed (or, in an older log, the command's name) stands in for it, so the person still sees what they asked.
    if (event.type === "user.message" && !event.agentId && event.data.source?.startsWith("command:"))
      state = {
        ...state,
        items: [...state.items, { kind: "user", id: `${event.id}-command`, text: event.data.typedText ?? `/${event.data.source.slice("command:".length)}` }],
      };
    state = reduceTranscript(state, event, Date.parse(event.timestamp) || 0);
  }
  // Whatever was in flight when the log ended is over now.
  state = { ...state, live: undefined, liveReasoning: undefined, running: [], permissions: [], busy: false, turnStartedAt: undefined, compacting: false };
  if (state.items.length > tail) {
    hidden += state.items.length - tail;
    state = { ...state, items: state.items.slice(-tail) };
  }
  if (hidden === 0) return state;
  return {
    ...state,
    items: [
      { kind: "notice", id: "resume-earlier", level: "info", text: `… ${hidden} earlier items of this session are not shown (they are in its events.jsonl).` },
      ...state.items,
    ],
  };
}
