/**
 * `/rewind` (`/undo`): go back to before a prompt. In the TUI without arguments it opens the dialog (the
 * points, the scope, a preview, a confirmation); `-p "/rewind"` lists the points. `/rewind <number>
 * [conversation|files]` (or `last`) goes back at once, keeping files changed since by hand (the
 * numbers are the list's: prompts still in the conversation).
 */
import type { RewindScope } from "../../protocol/rewind.js";
import { pointList } from "../rewind/rewind-text.js";
import type { SlashCommand, SlashCommandResult } from "./types.js";

const SCOPES: Record<string, RewindScope> = {
  both: "conversation-and-files",
  all: "conversation-and-files",
  conversation: "conversation",
  chat: "conversation",
  files: "files",
  code: "files",
};

export const rewindCommand: SlashCommand = {
  name: "rewind",
  aliases: ["undo"],
  description: "Go back to before a prompt: the conversation, the files the agent changed, or both",
  argsHint: "[<number>|last] [conversation|files]",
  run: async ({ session, args }): Promise<SlashCommandResult> => {
    const points = session.dispatch({ type: "rewind_points" });
    if (args === "")
      return session.interactive ? { kind: "dialog", dialog: "rewind" } : { kind: "show", title: "Rewind points", text: pointList(points, session.cwd) };
    const [which = "", scopeWord = "both", ...extra] = args.split(/\s+/);
    const scope = SCOPES[scopeWord.toLowerCase()];
    const point =
      which === "last" ? points.filter((candidate) => candidate.kind === "prompt").at(-1) : points.find((candidate) => String(candidate.number) === which);
    if (!point || !scope || extra.length > 0) {
      const problem = !point
        ? `There is no point ${which} to go back to (/rewind lists ${points.length}).`
        : `Unknown scope "${scopeWord}": conversation, files or both.`;
      return { kind: "message", level: "error", text: `${problem} Usage: /rewind [<number>|last] [conversation|files].` };
    }
    const outcome = await session.dispatch({ type: "rewind", eventId: point.eventId, scope });
    // Its session.snapshot_rewind says what it did.
    return outcome.ok ? { kind: "done" } : { kind: "message", level: "error", text: outcome.error };
  },
};
