/**
 * Memory as one session holds it: on or off, the board it started with, and the memory tools. Nothing of the
 * store, the board or the tools is loaded while memory is off, so a session without memory pays nothing;
 * turning it on (/memory on) loads them then.
 */
import type { AnyTool } from "../tools/define-tool.js";
import type { Board } from "./context-board.js";
import type { MemorySpace } from "./memory-space.js";
import type { MemorySettings } from "./memory-settings.js";

export interface SessionMemoryOptions {
  agentHome: string;
  /** The session's working directory at its start: its repository's store is the one it uses. */
  cwd: string;
  sessionId: string;
  enabled: boolean;
  settings: MemorySettings;
  /** The events.jsonl the session_digest tool reads: a parent session's (the detached run), else the session's own. */
  transcriptFile: string;
  /**
   * A run nobody watches that consolidates another session (the detached rem-agent): it may keep what it
   * learned about this repository, never memories that follow the user into every other one.
   */
  unattended?: boolean;
  /** Records /memory on|off for later sessions (settings.json); a message when that failed. */
  persist?(enabled: boolean): string | undefined;
}

interface Loaded {
  space: MemorySpace;
  board: Board;
  tools: AnyTool[];
  /** What is wrong with the store files (lines that are not memories, a file that cannot be read). */
  problems: string[];
}

let runtime: Promise<typeof import("./memory-runtime.js")> | undefined;

/**
 * The store, board and tools' code, imported once per process: every later session (a subagent's, /new) takes
 * it as loaded, without another import() to resolve (under a loader with hooks, such as tsx, that is a round trip
 * to the hooks' thread each time: most of the CPU the bench's board load was charged, docs/benchmarks.md).
 */
function memoryRuntime(): Promise<typeof import("./memory-runtime.js")> {
  // A failed import is not kept: the next session tries again, as each one did before.
  runtime ??= import("./memory-runtime.js").catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  return runtime;
}

export class SessionMemory {
  private on: boolean;
  private loaded: Loaded | undefined;
  private loading: Promise<Loaded> | undefined;
  private readonly listeners: (() => void)[] = [];
  /** Hidden agents a command let the model start, once each (/subconscious run: the rem-agent). */
  private readonly allowances = new Map<string, number>();

  constructor(readonly options: SessionMemoryOptions) {
    this.on = options.enabled;
  }

  get enabled(): boolean {
    return this.on;
  }

  /** Loads the store and the board when memory is on (the session's start waits for it). */
  async start(): Promise<void> {
    if (this.on) await this.load();
  }

  private load(): Promise<Loaded> {
    this.loading ??= memoryRuntime().then((runtime) => (this.loaded = runtime.loadMemory(this.options)));
    return this.loading;
  }

  /** The repository's and the user's stores (loads the code, whether memory is on or off: /memory show, forget). */
  async space(): Promise<MemorySpace> {
    return (await this.load()).space;
  }

  /** The `<context_board>` block of the system prompt; empty while memory is off. */
  get boardText(): string {
    return this.on ? (this.loaded?.board.text ?? "") : "";
  }

  /** The board as the session started with it (for /context and /memory show); undefined while memory is off. */
  get board(): Board | undefined {
    return this.on ? this.loaded?.board : undefined;
  }

  /** The store's problems found at loading, once (the session reports them as warnings). */
  takeProblems(): string[] {
    return this.loaded?.problems.splice(0) ?? [];
  }

  tools(): readonly AnyTool[] {
    return this.on ? (this.loaded?.tools ?? []) : [];
  }

  /** Lets the model start a hidden agent once: /subconscious run allows the rem-agent. */
  allowAgentOnce(name: string): void {
    this.allowances.set(name, (this.allowances.get(name) ?? 0) + 1);
  }

  /** Whether an allowance for this agent is left; takes it. */
  takeAgentAllowance(name: string): boolean {
    const left = this.allowances.get(name) ?? 0;
    if (left <= 0) return false;
    if (left === 1) this.allowances.delete(name);
    else this.allowances.set(name, left - 1);
    return true;
  }

  /** Called when memory is switched on or off (the session's system prompt changes with it). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** /memory on|off: for this session at once, and for later ones through settings.json. */
  async setEnabled(on: boolean): Promise<{ persisted?: string }> {
    if (on) await this.load();
    const changed = this.on !== on;
    this.on = on;
    if (changed) for (const listener of this.listeners) listener();
    const problem = this.options.persist?.(on);
    return problem ? { persisted: problem } : {};
  }
}
