/**
 * The frontmatter of skill files read before, kept in $AGENT_HOME/skills-cache.json by file path with the
 * file's size and modification time: a start whose skills have not changed stats each file instead of reading
 * and parsing it (start-up runs this code once, before any of it is optimised, so parsing 200 files costs more
 * than their stats). A changed, added or removed file is read again; what a file says never depends on anything
 * but its text, so a cached answer is exactly what reading it would give. A damaged cache only costs the reads.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { makePrivateDir, replacePrivateFile } from "../util/private-files.js";
import type { SkillDefinition, SkillOrigin, SkillProblem } from "./skill-file.js";

/** Bumped whenever parsing changes what a file gives. */
const VERSION = 1;
/** Files remembered at most (the most recently seen are kept): skills of many repositories, not without bound. */
const MAX_ENTRIES = 2000;

/** A file's parse, without where it was found (that is the folder's, added on use). */
export type CachedParse = { ok: true; skill: Omit<SkillDefinition, keyof SkillOrigin> } | { ok: false; error: SkillProblem };

interface Entry {
  size: number;
  mtimeMs: number;
  parse: CachedParse;
  seen: number;
}

export class SkillCache {
  private entries: Record<string, Entry> | undefined;
  private changed = false;

  constructor(private readonly file: string) {}

  private load(): Record<string, Entry> {
    if (this.entries) return this.entries;
    try {
      const parsed = JSON.parse(readFileSync(this.file, "utf8")) as { version?: number; files?: Record<string, Entry> };
      this.entries = parsed.version === VERSION && parsed.files && typeof parsed.files === "object" ? parsed.files : {};
    } catch {
      this.entries = {};
    }
    return this.entries;
  }

  /** The parse of `file` when its size and modification time are those it was cached with. */
  get(file: string, size: number, mtimeMs: number): CachedParse | undefined {
    const entry = this.load()[file];
    if (!entry || entry.size !== size || entry.mtimeMs !== mtimeMs) return undefined;
    entry.seen = Date.now();
    return entry.parse;
  }

  set(file: string, size: number, mtimeMs: number, parse: CachedParse): void {
    this.load()[file] = { size, mtimeMs, parse, seen: Date.now() };
    this.changed = true;
  }

  /**
   * Writes the cache when something new was read (whole, then renamed); a failure to write is not an error.
   * Then lets go of the entries: the session keeps the skills, not the cache, which a reload reads again (kept,
   * 200 skills' entries were live data that start-up's young-generation collections copied and promoted).
   */
  save(): void {
    const loaded = this.entries;
    this.entries = undefined;
    if (!this.changed || !loaded) return;
    this.changed = false;
    const entries = Object.entries(loaded);
    const kept = entries.length > MAX_ENTRIES ? entries.sort(([, a], [, b]) => b.seen - a.seen).slice(0, MAX_ENTRIES) : entries;
    try {
      makePrivateDir(path.dirname(this.file));
      replacePrivateFile(this.file, JSON.stringify({ version: VERSION, files: Object.fromEntries(kept) }));
    } catch {
      // The cache is only a shortcut.
    }
  }
}

export const skillCacheFile = (agentHome: string): string => path.join(agentHome, "skills-cache.json");
