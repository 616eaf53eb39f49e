/**
 * The prompts a person typed, newest last, kept in $AGENT_HOME/command-history-state.json in Copilot CLI's
 * format (`{"commandHistory": [...]}`) for ↑/↓ and ctrl+r. Loading never fails: a broken file is history lost,
 * not a crash.
 */
import { readFileSync } from "node:fs";
import { replacePrivateFile } from "../util/private-files.js";
import path from "node:path";

export const HISTORY_LIMIT = 200;

export interface PromptHistory {
  /** Oldest first. */
  readonly entries: readonly string[];
  add(prompt: string): void;
}

export class FilePromptHistory implements PromptHistory {
  private items: string[];
  private readonly file: string;

  constructor(
    agentHome: string,
    private readonly limit = HISTORY_LIMIT,
  ) {
    this.file = path.join(agentHome, "command-history-state.json");
    this.items = FilePromptHistory.load(this.file);
  }

  private static load(file: string): string[] {
    try {
      const value: unknown = JSON.parse(readFileSync(file, "utf8"));
      const list = (value as { commandHistory?: unknown }).commandHistory;
      return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : [];
    } catch {
      return [];
    }
  }

  get entries(): readonly string[] {
    return this.items;
  }

  add(prompt: string): void {
    if (prompt.trim() === "") return;
    this.items = [...this.items.filter((item) => item !== prompt), prompt].slice(-this.limit);
    try {
      replacePrivateFile(this.file, `${JSON.stringify({ commandHistory: this.items }, null, 2)}\n`);
    } catch {
      // History is a convenience; a read-only home must not break the prompt.
    }
  }
}

/** In memory only, for tests. */
export class MemoryPromptHistory implements PromptHistory {
  private items: string[];

  constructor(entries: readonly string[] = []) {
    this.items = [...entries];
  }

  get entries(): readonly string[] {
    return this.items;
  }

  add(prompt: string): void {
    if (prompt.trim() !== "") this.items = [...this.items.filter((item) => item !== prompt), prompt];
  }
}
