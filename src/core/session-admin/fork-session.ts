/**
 * A fork: a new session whose log is a copy of another's, whole or up to (not including) one of its
 * events. The copied lines are kept byte for byte (their ids, their chain, event types this version does
 * not know); only the first line, session.start, is new: the new session's id and start time, and
 * `forkedFrom` naming the parent and the event the copy stops before. The parent is only read, so it may
 * be open (here or in another process) while it is forked. The file snapshots of the copied prompts go
 * along, so the fork can rewind files to any of its points.
 */
import { randomUUID } from "../../util/random-id.js";
import { readFileSync } from "node:fs";
import type { EventData } from "../../protocol/events/index.js";
import type { ForkOutcome } from "../../protocol/rewind.js";
import { typedPrompt } from "../../session/metadata-keeper.js";
import { SnapshotStore } from "../../session/rewind/snapshot-store.js";
import { serializeEventLine } from "../../session/serialize.js";
import { readMetadata, writeMetadata } from "../../session/session-metadata.js";
import type { SessionStore } from "../../session/session-store.js";
import { writePrivateFile } from "../../util/private-files.js";

interface RawEvent {
  id: string;
  type: string;
  timestamp?: string;
  parentId?: string | null;
  agentId?: string;
  data?: Record<string, unknown>;
}

function parseLines(text: string): { line: string; event: RawEvent }[] {
  const parsed: { line: string; event: RawEvent }[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\0/g, "").trim();
    if (line === "") continue;
    try {
      const event = JSON.parse(line) as RawEvent;
      if (typeof event?.id === "string" && typeof event.type === "string") parsed.push({ line, event });
    } catch {
      // a torn line (a crash): not part of the copy
    }
  }
  return parsed;
}

export async function forkSession(store: SessionStore, sourceId: string, options: { toEventId?: string; name?: string } = {}): Promise<ForkOutcome> {
  let text: string;
  try {
    text = store.exists(sourceId) ? readFileSync(store.eventsFileOf(sourceId), "utf8") : "";
  } catch (error) {
    return { ok: false, error: `Session ${sourceId} could not be read: ${(error as Error).message}` };
  }
  const lines = parseLines(text);
  if (lines.length === 0) return { ok: false, error: `Session ${sourceId} not found or has no persisted events.` };
  let end = lines.length;
  if (options.toEventId !== undefined) {
    end = lines.findIndex(({ event }) => event.id === options.toEventId);
    if (end < 0) return { ok: false, error: `Event ${options.toEventId} not found in session ${sourceId}.` };
  }
  const copied = lines.slice(0, end);
  const id = store.create();
  const now = new Date().toISOString();
  const first = copied[0]?.event;
  const parentStart = first?.type === "session.start" ? first : undefined;
  const start = {
    id: parentStart?.id ?? randomUUID(),
    timestamp: now,
    parentId: null,
    type: "session.start",
    data: {
      ...(parentStart?.data ?? { version: 1, producer: "agent", copilotVersion: "" }),
      sessionId: id,
      startTime: now,
      ...(options.name ? { name: options.name } : {}),
      forkedFrom: { sessionId: sourceId, ...(options.toEventId !== undefined ? { upToEventId: options.toEventId } : {}) },
    },
  };
  const rest = parentStart ? copied.slice(1) : copied;
  const dir = store.dirOf(id);
  writePrivateFile(store.eventsFileOf(id), serializeEventLine(start) + rest.map(({ line }) => `${line}\n`).join(""));

  const parent = await readMetadata(store.dirOf(sourceId));
  const context = (parentStart?.data?.context ?? {}) as { cwd?: string; gitRoot?: string; branch?: string };
  const typed = (event: RawEvent) =>
    event.type === "user.message" && event.agentId === undefined ? typedPrompt(event.data as EventData<"user.message">) : undefined;
  const firstPrompt = rest.map(({ event }) => typed(event)).find((prompt) => prompt !== undefined);
  writeMetadata(dir, {
    id,
    cwd: parent?.cwd ?? context.cwd ?? "",
    ...(options.name ? { name: options.name } : {}),
    userNamed: options.name !== undefined,
    createdAt: now,
    updatedAt: now,
    ...(firstPrompt !== undefined ? { firstPrompt: firstPrompt.slice(0, 500) } : {}),
    eventCount: rest.length + 1,
    ...(parent?.model ? { model: parent.model } : {}),
    ...((parent?.gitRoot ?? context.gitRoot) ? { gitRoot: parent?.gitRoot ?? context.gitRoot } : {}),
    ...((parent?.branch ?? context.branch) ? { branch: parent?.branch ?? context.branch } : {}),
  });
  const pointIds = rest.flatMap(({ event }) => (event.type === "user.message" || event.type === "session.snapshot_rewind" ? [event.id] : []));
  new SnapshotStore(store.dirOf(sourceId)).copyPoints(new SnapshotStore(dir), pointIds);
  return { ok: true, sessionId: id, ...(options.name ? { name: options.name } : {}) };
}
