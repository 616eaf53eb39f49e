/**
 * The TUI's handle on "the current session": the one it shows and drives, which /clear and /resume replace.
 * The composition root (src/cli) implements it with the engine; tests can too.
 */
import type { SessionView } from "../core/index.js";
import type { SessionEvent } from "../protocol/events/index.js";
import type { SessionMetadata } from "../session/session-metadata.js";

export interface SessionHost {
  /** False while the first session is still opening (the TUI draws before the engine is loaded). */
  readonly ready: boolean;
  /** The current session (commands in, events out); only valid once `ready`. */
  readonly session: SessionView;
  /** Events the current session's log held when it was opened (its past, when resumed). */
  readonly history: readonly SessionEvent[];
  /** Instruction files the session loaded (for /help). */
  readonly instructionFiles: readonly string[];
  readonly cwd: string;
  readonly branch?: string;
  /** Starts a fresh session in the same directory; the current one is shut down (and stays resumable). */
  startNew(): Promise<void>;
  /** Switches to another session by id. */
  switchTo(id: string): Promise<void>;
  listSessions(): Promise<SessionMetadata[]>;
  /** Rewrites a submitted line before it goes to the session (`--fleet` turns the first prompt into `/fleet …`). */
  prepareInput?(text: string): string;
  /** Called after every switch (startNew, switchTo). */
  onSwitch(listener: () => void): () => void;
}
