/**
 * `session.lifecycle` notifications (the SDK's `client.onLifecycle`): every client of the server hears that a
 * session was created, changed or deleted, whoever holds it. Like the real runtime, a session "changes"
 * with each event it records; its summary is its name, or else its first prompt (as session.list says).
 */
import type { SessionEvent } from "../protocol/events/index.js";
import { typedPrompt } from "../session/metadata-keeper.js";
import { readMetadata } from "../session/session-metadata.js";

export interface LifecycleNotification {
  type: "session.created" | "session.updated" | "session.deleted";
  sessionId: string;
  /** Absent on session.deleted. */
  metadata?: { startTime: string; modifiedTime: string; summary?: string };
}

export type Announce = (notification: LifecycleNotification) => void;

/**
 * Announces a session just opened (created, or resumed from disk) and returns the listener that announces
 * its changes from then on.
 */
export async function followLifecycle(session: { id: string; dir: string }, created: boolean, announce: Announce): Promise<(event: SessionEvent) => void> {
  const now = new Date().toISOString();
  const stored = created ? undefined : await readMetadata(session.dir);
  const startTime = stored?.createdAt ?? now;
  let summary = stored?.name ?? stored?.firstPrompt;
  const metadata = (modifiedTime: string) => ({ startTime, modifiedTime, ...(summary ? { summary } : {}) });
  if (created) announce({ type: "session.created", sessionId: session.id, metadata: metadata(now) });
  return (event) => {
    if (event.agentId) return;
    if (event.type === "session.title_changed") summary = event.data.title;
    else if (event.ephemeral) return;
    else if (event.type === "user.message" && summary === undefined) summary = typedPrompt(event.data)?.slice(0, 500);
    announce({ type: "session.updated", sessionId: session.id, metadata: metadata(event.timestamp) });
  };
}
