/**
 * The sessions under $AGENT_HOME/session-state/<uuid>/: creating one, listing them, and finding one by
 * id, id prefix (7+ characters) or name.
 */
import { randomUUID } from "../util/random-id.js";
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { sessionStateDir } from "../config/agent-home.js";
import { readMetadata, type SessionMetadata } from "./session-metadata.js";
import { fsFailure } from "../util/fs-failure.js";
import { makePrivateDir } from "../util/private-files.js";

export const EVENTS_FILE = "events.jsonl";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ResolveResult = { ok: true; id: string } | { ok: false; message: string };

/** A session id names a folder: a plain name, never a path. */
export function isValidSessionId(id: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id) && !id.includes("..");
}

export class SessionStore {
  readonly root: string;

  constructor(agentHome: string) {
    this.root = sessionStateDir(agentHome);
  }

  dirOf(id: string): string {
    return path.join(this.root, id);
  }

  eventsFileOf(id: string): string {
    return path.join(this.dirOf(id), EVENTS_FILE);
  }

  /** Makes the folder of a new session and returns its id (a caller's own id must be a plain name). */
  create(id: string = randomUUID()): string {
    if (!isValidSessionId(id)) throw new Error(`Invalid session id "${id}": use letters, digits, ".", "_" and "-" (at most 128).`);
    try {
      // Transcripts hold file contents and command output: AGENT_HOME and its folders are private.
      makePrivateDir(this.dirOf(id));
    } catch (error) {
      throw fsFailure(error, `Could not create the session folder ${this.dirOf(id)}`);
    }
    return id;
  }

  /** Removes a session's folder and everything in it. */
  delete(id: string): void {
    if (!isValidSessionId(id)) throw new Error(`Invalid session id "${id}".`);
    rmSync(this.dirOf(id), { recursive: true, force: true });
  }

  exists(id: string): boolean {
    return existsSync(this.eventsFileOf(id));
  }

  ids(): string[] {
    try {
      return readdirSync(this.root).filter((name) => isValidSessionId(name) && this.exists(name));
    } catch {
      return [];
    }
  }

  /** Every session's metadata, most recently updated first. */
  async list(): Promise<SessionMetadata[]> {
    const all = await Promise.all(
      this.ids().map(async (id) => {
        const metadata = await readMetadata(this.dirOf(id));
        if (metadata) return metadata;
        // A session whose metadata was lost: what the log's timestamps say.
        const stats = statSync(this.eventsFileOf(id));
        return { id, cwd: "", userNamed: false, createdAt: stats.birthtime.toISOString(), updatedAt: stats.mtime.toISOString(), eventCount: 0 };
      }),
    );
    return all.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /** Sessions that hold a conversation (a session opened and left without a prompt is not one). */
  async conversations(): Promise<SessionMetadata[]> {
    return (await this.list()).filter((session) => session.firstPrompt !== undefined);
  }

  /** The most recently updated conversation in this directory. */
  async latestFor(cwd: string): Promise<SessionMetadata | undefined> {
    return (await this.conversations()).find((session) => session.cwd === cwd);
  }

  /** A full id, an id prefix of 7 or more characters, or a session name (case-insensitive). */
  async resolve(query: string): Promise<ResolveResult> {
    const wanted = query.trim();
    if (wanted === "") return { ok: false, message: "No session id or name was given." };
    if (UUID.test(wanted)) {
      return this.exists(wanted.toLowerCase())
        ? { ok: true, id: wanted.toLowerCase() }
        : { ok: false, message: `No session with id ${wanted} in ${this.root}.` };
    }
    if (isValidSessionId(wanted) && this.exists(wanted)) return { ok: true, id: wanted };
    const ids = this.ids();
    if (/^[0-9a-f-]{7,}$/i.test(wanted)) {
      const matches = ids.filter((id) => id.startsWith(wanted.toLowerCase()));
      if (matches.length === 1) return { ok: true, id: matches[0] as string };
      if (matches.length > 1) return { ok: false, message: `"${wanted}" matches ${matches.length} sessions: ${matches.join(", ")}. Give more of the id.` };
    }
    const named = (await this.list()).filter((session) => session.name?.toLowerCase() === wanted.toLowerCase());
    if (named.length === 1) return { ok: true, id: (named[0] as SessionMetadata).id };
    if (named.length > 1) {
      return { ok: false, message: `${named.length} sessions are named "${wanted}": ${named.map((s) => s.id).join(", ")}. Use an id.` };
    }
    return { ok: false, message: `No session matches "${wanted}" (by id, id prefix of 7+ characters, or name) in ${this.root}.` };
  }
}
