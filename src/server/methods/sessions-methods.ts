/**
 * The server-scoped methods on stored sessions (`sessions.*`): list, find, size, close, delete and prune, by
 * the SessionManager's rules (a session another live process holds is never deleted; one open here is closed
 * first). Reads of the store and the manager; nothing here keeps state of its own.
 */
import { z } from "zod";
import type { SessionManager } from "../../core/index.js";
import { sessionLockHolder } from "../../session/session-lock.js";
import type { SessionMetadata } from "../../session/session-metadata.js";
import { directorySize } from "../../session/session-size.js";
import type { ClientLink } from "../served-session.js";
import { matchesFilter, sessionInfo } from "../session-info.js";
import type { SESSIONS_METHODS } from "./server-method-names.js";

export interface SessionsContext {
  manager: SessionManager;
  /** Closes a session open in this process (its turn interrupted, its clients told). */
  close(sessionId: string): Promise<void>;
  /** Opens a stored session for this client, as session.resume does. */
  resume(link: ClientLink, sessionId: string): Promise<{ sessionId: string }>;
  /** A stored session was deleted: every client hears session.deleted. */
  deleted(sessionId: string): void;
}

const idSchema = z.looseObject({ sessionId: z.string() });
const idsSchema = z.looseObject({ sessionIds: z.array(z.string()) });
const filterSchema = z.looseObject({ cwd: z.string().optional(), gitRoot: z.string().optional(), branch: z.string().optional() });
const listSchema = z.looseObject({ filter: filterSchema.optional() });
const contextSchema = z.looseObject({ context: z.looseObject({ cwd: z.string().optional() }).optional() });
const enrichSchema = z.looseObject({ sessions: z.array(z.looseObject({ sessionId: z.string() })) });
const pruneSchema = z.looseObject({
  olderThanDays: z.number().min(0),
  dryRun: z.boolean().optional(),
  includeNamed: z.boolean().optional(),
  excludeSessionIds: z.array(z.string()).optional(),
});
const openSchema = z.looseObject({ kind: z.string(), sessionId: z.string().optional(), context: z.looseObject({ cwd: z.string().optional() }).optional() });

type Method = (typeof SESSIONS_METHODS)[number];
type Handler = (link: ClientLink, params: unknown) => unknown;

export function sessionsMethods(context: SessionsContext): Record<Method, Handler> {
  const { manager } = context;
  const store = manager.store;
  const known = (sessionId: string) => {
    if (!manager.get(sessionId) && !store.exists(sessionId)) throw new Error(`Session not found: ${sessionId}`);
  };
  const heldElsewhere = (sessionId: string) => {
    const holder = sessionLockHolder(store.dirOf(sessionId));
    return holder !== undefined && holder !== process.pid;
  };
  /** Deletes one stored session; the bytes it freed, or undefined when it was not deleted. */
  const remove = async (sessionId: string): Promise<number | undefined> => {
    if (!store.exists(sessionId)) return undefined;
    const size = directorySize(store.dirOf(sessionId));
    if ((await manager.delete(sessionId)) !== undefined) return undefined;
    context.deleted(sessionId);
    return size;
  };

  return {
    "sessions.list": async (_link, params) => {
      const { filter } = listSchema.parse(params ?? {});
      return { sessions: (await manager.list()).filter((metadata) => matchesFilter(metadata, filter)).map(sessionInfo) };
    },
    // Every event is appended to the log as it happens: a session is always saved; this only checks it exists.
    "sessions.save": (_link, params) => {
      known(idSchema.parse(params).sessionId);
      return {};
    },
    "sessions.close": async (_link, params) => {
      const { sessionId } = idSchema.parse(params);
      known(sessionId);
      await context.close(sessionId);
      return {};
    },
    // A dead process's lock never locks a session, and this process releases its own when it closes one.
    "sessions.releaseLock": (_link, params) => {
      const { sessionId } = idSchema.parse(params);
      if (manager.get(sessionId)) throw new Error(`Session ${sessionId} is open here; close it first (sessions.close).`);
      return {};
    },
    "sessions.checkInUse": (_link, params) => ({ inUse: idsSchema.parse(params).sessionIds.filter((id) => store.exists(id) && heldElsewhere(id)) }),
    "sessions.getSizes": () => ({ sizes: Object.fromEntries(store.ids().map((id) => [id, directorySize(store.dirOf(id))])) }),
    "sessions.findByPrefix": async (_link, params) => {
      const { prefix } = z.looseObject({ prefix: z.string() }).parse(params);
      const wanted = prefix.trim().toLowerCase();
      const matches = wanted === "" ? [] : store.ids().filter((id) => id.startsWith(wanted));
      return matches.length === 1 ? { sessionId: matches[0] } : {};
    },
    // Sessions here are never started for a task (Copilot's coding-agent tasks): no task id finds one.
    "sessions.findByTaskId": (_link, params) => {
      z.looseObject({ taskId: z.string() }).parse(params);
      return {};
    },
    "sessions.getLastForContext": async (_link, params) => {
      const cwd = contextSchema.parse(params).context?.cwd;
      const latest = cwd === undefined ? undefined : await store.latestFor(cwd);
      return latest ? { sessionId: latest.id } : {};
    },
    "sessions.enrichMetadata": async (_link, params) => {
      const { sessions } = enrichSchema.parse(params);
      const stored = new Map((await store.list()).map((metadata): [string, SessionMetadata] => [metadata.id, metadata]));
      return { sessions: sessions.map((given) => ({ ...given, ...withStored(stored.get(given.sessionId)) })) };
    },
    "sessions.bulkDelete": async (_link, params) => {
      const freedBytes: Record<string, number> = {};
      for (const sessionId of idsSchema.parse(params).sessionIds) {
        const freed = await remove(sessionId);
        if (freed !== undefined) freedBytes[sessionId] = freed;
      }
      return { freedBytes };
    },
    "sessions.pruneOld": async (_link, params) => {
      const { olderThanDays, dryRun = false, includeNamed = false, excludeSessionIds = [] } = pruneSchema.parse(params);
      const cutoff = Date.now() - olderThanDays * 24 * 60 * 60 * 1000;
      const candidates: string[] = [];
      const skipped: string[] = [];
      for (const metadata of await store.list()) {
        if (Date.parse(metadata.updatedAt) > cutoff || excludeSessionIds.includes(metadata.id)) continue;
        if ((metadata.userNamed && !includeNamed) || manager.get(metadata.id) || heldElsewhere(metadata.id)) skipped.push(metadata.id);
        else candidates.push(metadata.id);
      }
      const sizes = candidates.map((id) => directorySize(store.dirOf(id)));
      if (dryRun) return { deleted: [], candidates, skipped, freedBytes: sizes.reduce((sum, size) => sum + size, 0), dryRun };
      const deleted: string[] = [];
      let freedBytes = 0;
      for (const id of candidates) {
        const freed = await remove(id);
        if (freed === undefined) skipped.push(id);
        else (deleted.push(id), (freedBytes += freed));
      }
      return { deleted, candidates, skipped, freedBytes, dryRun };
    },
    // Opened for this client, like session.resume: the last conversation of a directory, or one by id.
    "sessions.open": async (link, params) => {
      const request = openSchema.parse(params);
      if (request.kind !== "resumeLast" && request.kind !== "resume") {
        throw new Error(`sessions.open: kind "${request.kind}" is not supported by this server (use session.create or session.resume).`);
      }
      const cwd = request.context?.cwd;
      const target = request.kind === "resume" ? request.sessionId : cwd === undefined ? undefined : (await store.latestFor(cwd))?.id;
      if (target === undefined || !store.exists(target)) return { status: "not_found" };
      return { status: "resumed", sessionId: (await context.resume(link, target)).sessionId };
    },
    "sessions.connect": (_link, params) => {
      const { sessionId } = idSchema.parse(params);
      throw new Error(`Remote session not found: ${sessionId} (this server holds local sessions only).`);
    },
  };
}

function withStored(metadata: SessionMetadata | undefined) {
  if (!metadata) return {};
  const info = sessionInfo(metadata);
  return { ...info, ...(metadata.name ? { name: metadata.name } : {}) };
}
