/**
 * Whether a `-p` run's new session recorded anything worth resuming. A run whose input never reached the
 * model and changed nothing (`-p /usage`, `-p /help`, `-p /x`) leaves no empty session behind: the runner
 * deletes its folder at the end. A prompt (even one the endpoint refused), or state a command changed (the
 * mode, model, directory, agent or name), keeps it. A resumed session is always kept.
 */
import { isEphemeralEventType } from "../protocol/events/ephemeral.js";
import type { EventType, SessionEvent } from "../protocol/events/index.js";

/** What any run records: its start and end, what commands said, the hooks that ran at the start. */
const NOTHING_TO_RESUME: ReadonlySet<string> = new Set<EventType>([
  "session.start",
  "session.shutdown",
  "session.info",
  "session.warning",
  "session.error",
  "hook.start",
  "hook.end",
]);

export class KeptSessionWatch {
  private worth = false;

  get worthKeeping(): boolean {
    return this.worth;
  }

  readonly onEvent = (event: SessionEvent): void => {
    if (this.worth) return;
    // A rename is ephemeral as an event but lasting in workspace.yaml.
    if (event.type === "session.title_changed" || (!isEphemeralEventType(event.type) && !NOTHING_TO_RESUME.has(event.type))) this.worth = true;
  };
}
