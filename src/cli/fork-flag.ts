/**
 * `--fork [point]` with `--resume <id>` or `--continue`: the session is forked first and the run (TUI or
 * -p) goes on in the fork, leaving the original as it was. The point is a number as /rewind lists the
 * points (the fork holds what came before that prompt) or an event id; without one the fork holds all of it.
 */
import { readEventLog } from "../session/event-log-reader.js";
import { RewindTimeline } from "../session/rewind/rewind-timeline.js";
import { SessionStore } from "../session/session-store.js";
import { forkSession } from "../core/session-admin/fork-session.js";
import { resolveAgentHome } from "../config/agent-home.js";
import type { CliOptions } from "./cli-options.js";

/** The event a point names: its number as /rewind lists the points, or an event id. */
function eventOfPoint(store: SessionStore, id: string, point: string): string | { error: string } {
  if (!/^\d+$/.test(point)) return point;
  const timeline = new RewindTimeline();
  for (const event of readEventLog(store.eventsFileOf(id)).events) timeline.apply(event);
  const points = timeline.visiblePoints();
  const found = points[Number(point) - 1];
  return found ? found.eventId : { error: `--fork ${point}: session ${id} has ${points.length} point${points.length === 1 ? "" : "s"} (/rewind lists them).` };
}

/** The options with `resume` pointing at a new fork, or why there is none. */
export async function applyForkFlag(options: CliOptions): Promise<{ options: CliOptions; note: string } | { error: string }> {
  const store = new SessionStore(resolveAgentHome());
  let id: string;
  if (typeof options.resume === "string") {
    const found = await store.resolve(options.resume);
    if (!found.ok) return { error: found.message };
    id = found.id;
  } else if (options.continue) {
    const latest = await store.latestFor(options.cwd);
    if (!latest) return { error: "--continue --fork: no session in this directory to fork." };
    id = latest.id;
  } else {
    return { error: "--fork needs the session to fork: --resume <id> --fork, or --continue --fork." };
  }
  const toEventId = options.fork === true || options.fork === undefined ? undefined : eventOfPoint(store, id, options.fork);
  if (typeof toEventId === "object") return { error: toEventId.error };
  const forked = await forkSession(store, id, { ...(toEventId ? { toEventId } : {}), ...(options.name ? { name: options.name } : {}) });
  if (!forked.ok) return { error: forked.error };
  const { fork: _fork, ...rest } = options;
  return { options: { ...rest, resume: forked.sessionId, continue: false }, note: `Forked session ${id} into ${forked.sessionId}.` };
}
