/**
 * What happens to a submitted line: it goes to the engine's input router as typed (slash commands, `!cmd`
 * and `@path` are resolved there) and the engine queues it if it is busy. The app only acts on what the
 * router hands back for a face (a dialog, a new session, exit). Lines typed before the session has opened
 * are held here until it is, then sent in order.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { InputResult } from "../../protocol/commands.js";
import type { Attachment } from "../../protocol/events/index.js";
import type { SessionHost } from "../session-host.js";
import type { TranscriptStore } from "../state/transcript-store.js";
import { neutraliseTerminalText } from "../../util/terminal-text.js";

export interface Submission {
  text: string;
  attachments: Attachment[];
}

export type DialogName = "help" | "quick-help" | "model" | "resume" | "agent" | "tasks" | "rewind";

export interface SubmitActions {
  submit(submission: Submission): void;
  /** Lines typed before the session opened, still waiting to be sent. */
  waiting: readonly Submission[];
  /** Takes the last queued prompt back out of the engine's queue (to edit it). */
  unqueueLast(): Submission | undefined;
  /** Enter on an empty prompt: sends a queue held after an interrupt. */
  flushQueue(): void;
}

let localCounter = 0;
const localId = () => `local-${++localCounter}`;

export function useSubmit(options: {
  host: SessionHost;
  store: TranscriptStore;
  /** The session is still opening. */
  starting: boolean;
  /** Opens a dialog; `ready` is called once it listens for keys. */
  openDialog(dialog: DialogName, ready: () => void): void;
  exit(): void;
  /** Puts text on the clipboard (through the terminal). */
  copyToClipboard(text: string): void;
  /** Holds keys back while a slash command runs (see InputBus.hold); returns the release. */
  holdInput?(): () => void;
  /** Opens a file in the person's editor (the runner hands it the terminal); a problem, if any. */
  editFile?(file: string): Promise<string | undefined>;
  /** A line submitted before anything was typed (`agent -i "…"`). */
  first?: string;
}): SubmitActions {
  const { host, store, starting } = options;
  const [waiting, setWaiting] = useState<Submission[]>(() => (options.first?.trim() ? [{ text: options.first, attachments: [] }] : []));
  const latest = useRef(options);
  latest.current = options;

  const note = useCallback(
    (text: string, level: "info" | "warning" | "error" = "info") => store.addLocal({ kind: "notice", id: localId(), level, text }),
    [store],
  );

  const handleResult = useCallback(
    (result: InputResult, release: () => void) => {
      const { openDialog, exit, copyToClipboard, editFile } = latest.current;
      if (result.kind === "dialog") return openDialog(result.dialog, release);
      release();
      switch (result.kind) {
        case "prompt":
          result.run.catch((error: unknown) => note((error as Error).message, "error"));
          return;
        case "new-session":
          host.startNew().catch((error: unknown) => note((error as Error).message, "error"));
          return;
        case "switch-session":
          host
            .switchTo(result.sessionId)
            .then(() => note(result.note))
            .catch((error: unknown) => note(`${result.note} Could not open it: ${(error as Error).message}`, "error"));
          return;
        case "exit":
          return exit();
        case "show":
          store.addLocal({ kind: "output", id: localId(), title: neutraliseTerminalText(result.title), text: neutraliseTerminalText(result.text) });
          return;
        case "diff":
          store.addLocal({ kind: "diff", id: localId(), summary: neutraliseTerminalText(result.summary), patch: neutraliseTerminalText(result.patch) });
          return;
        case "copy":
          copyToClipboard(result.text);
          note(
            `Copied the last answer (${result.text.length} characters) to the clipboard through the terminal (OSC 52); a terminal without OSC 52 support copies nothing.`,
          );
          return;
        case "edit":
          if (!editFile) return note(`${result.title}: ${result.path}`);
          editFile(result.path)
            .then((problem) =>
              note(problem ?? `Edited ${result.path}. A line that is not a memory is kept and reported, not lost.`, problem ? "error" : "info"),
            )
            .catch((error: unknown) => note((error as Error).message, "error"));
          return;
        case "done":
        case "unknown-command":
          return; // the engine's events say what happened
      }
    },
    [host, note, store],
  );

  const submit = useCallback(
    (submission: Submission) => {
      if (!host.ready) {
        setWaiting((current) => [...current, submission]);
        return;
      }
      // Keys typed while a slash command runs belong to what it opens (a picker), not to the prompt.
      const release = submission.text.trimStart().startsWith("/") ? (latest.current.holdInput?.() ?? (() => undefined)) : () => undefined;
      const text = host.prepareInput ? host.prepareInput(submission.text) : submission.text;
      host.session
        .dispatch({ type: "input", text, ...(submission.attachments.length > 0 ? { attachments: submission.attachments } : {}) })
        .then((result) => handleResult(result, release))
        .catch((error: unknown) => {
          release();
          note((error as Error).message, "error");
        });
    },
    [host, note, handleResult],
  );

  // Once the session is open, what was typed meanwhile goes, in order (the engine queues all but the first).
  useEffect(() => {
    if (starting || !host.ready || waiting.length === 0) return;
    const pending = waiting;
    setWaiting([]);
    for (const submission of pending) submit(submission);
  }, [starting, host, waiting, submit]);

  const unqueueLast = useCallback((): Submission | undefined => {
    if (waiting.length > 0) {
      const last = waiting.at(-1) as Submission;
      setWaiting(waiting.slice(0, -1));
      return last;
    }
    const last = store.getState().queue.at(-1);
    if (!last || !host.ready) return undefined;
    const item = host.session.dispatch({ type: "unqueue", id: last.id });
    return item ? { text: item.prompt, attachments: item.attachments ?? [] } : undefined;
  }, [waiting, store, host]);

  const flushQueue = useCallback(() => {
    if (host.ready && store.getState().queuePaused) host.session.dispatch({ type: "flush_queue" });
  }, [host, store]);

  return { submit, waiting, unqueueLast, flushQueue };
}
