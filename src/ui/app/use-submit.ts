/**
 * What happens to a submitted prompt: `/command` runs a slash command, `!cmd` runs a shell command for the
 * user, anything else goes to the model — now, or queued while the agent is busy (sent when it is idle).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Attachment } from "../../core/events/index.js";
import { parseSlashCommand, type SlashCommandResult } from "../../core/slash-commands/registry.js";
import type { SessionHost } from "../session-host.js";
import type { TranscriptStore } from "../state/transcript-store.js";

export interface Submission {
  text: string;
  attachments: Attachment[];
}

export type DialogName = "help" | "quick-help" | "model" | "resume";

export interface SubmitActions {
  submit(submission: Submission): void;
  queue: Submission[];
  /** Takes the last queued prompt back (to edit it). */
  unqueueLast(): Submission | undefined;
}

let localCounter = 0;
const localId = () => `local-${++localCounter}`;

export function useSubmit(options: {
  host: SessionHost;
  store: TranscriptStore;
  busy: boolean;
  /** The session is still opening: everything waits in the queue. */
  starting: boolean;
  /** Opens a dialog; `ready` is called once it is on screen and listening for keys. */
  openDialog(dialog: DialogName, ready: () => void): void;
  exit(): void;
  /** Holds keys back while a slash command runs (see InputBus.hold); returns the release. */
  holdInput?(): () => void;
}): SubmitActions {
  const { host, store, busy, starting } = options;
  const [queue, setQueue] = useState<Submission[]>([]);
  const latest = useRef(options);
  latest.current = options;

  const note = useCallback((text: string, level: "info" | "warning" | "error" = "info") => store.addLocal({ kind: "notice", id: localId(), level, text }), [store]);

  const send = useCallback(
    (submission: Submission) => {
      host.session.send(submission.text, { attachments: submission.attachments }).catch((error: unknown) => note((error as Error).message, "error"));
    },
    [host, note],
  );

  const handleResult = useCallback(
    (result: SlashCommandResult, release: () => void) => {
      const { openDialog, exit } = latest.current;
      if (result.kind === "dialog") return openDialog(result.dialog, release);
      release();
      switch (result.kind) {
        case "message":
          return note(result.text, result.level ?? "info");
        case "prompt":
          return send({ text: result.prompt, attachments: [] });
        case "new-session":
          host.startNew().catch((error: unknown) => note((error as Error).message, "error"));
          return;
        case "exit":
          return exit();
      }
    },
    [host, note, send],
  );

  const submit = useCallback(
    (submission: Submission) => {
      const text = submission.text.trim();
      if (!host.ready) {
        setQueue((current) => [...current, submission]);
        return;
      }
      const slash = parseSlashCommand(text);
      if (slash) {
        store.addLocal({ kind: "user", id: localId(), text });
        if (!slash.command) return note(`Unknown command: /${slash.name} (type / to see the commands)`, "error");
        // Keys typed while the command runs belong to what it opens (a picker), not to the prompt.
        const release = latest.current.holdInput?.() ?? (() => undefined);
        Promise.resolve()
          .then(() => slash.command?.run({ session: host.session, args: slash.args }))
          .then((result) => (result ? handleResult(result, release) : release()))
          .catch((error: unknown) => {
            release();
            note(`/${slash.name}: ${(error as Error).message}`, "error");
          });
        return;
      }
      if (text.startsWith("!")) {
        const command = text.slice(1).trim();
        if (command === "") return;
        if (host.session.busy) {
          setQueue((current) => [...current, submission]);
          return;
        }
        host.session.runShellCommand(command).catch((error: unknown) => note((error as Error).message, "error"));
        return;
      }
      // Asked of the engine, not of the last frame: a prompt sent in the same frame as another must queue.
      if (host.session.busy) setQueue((current) => [...current, submission]);
      else send(submission);
    },
    [host, store, note, send, handleResult],
  );

  // When the agent becomes idle, the next queued prompt goes.
  useEffect(() => {
    if (busy || starting || queue.length === 0) return;
    const [next, ...rest] = queue as [Submission, ...Submission[]];
    setQueue(rest);
    submit(next);
  }, [busy, starting, queue, submit]);

  const unqueueLast = useCallback((): Submission | undefined => {
    const last = queue.at(-1);
    if (last) setQueue(queue.slice(0, -1));
    return last;
  }, [queue]);

  return { submit, queue, unqueueLast };
}
