/** `/copy`: the last answer to the clipboard (the face does the copying: the TUI through the terminal, OSC 52). */
import { readSessionEvents } from "../session-admin/session-report.js";
import { lastAnswer } from "../session-admin/transcript.js";
import type { SlashCommand, SlashCommandResult } from "./types.js";

export const copyCommand: SlashCommand = {
  name: "copy",
  description: "Copy the last answer to the clipboard",
  run: async ({ session }): Promise<SlashCommandResult> => {
    const answer = lastAnswer(await readSessionEvents(session));
    return answer === undefined ? { kind: "message", level: "warning", text: "There is no answer to copy yet." } : { kind: "copy", text: answer };
  },
};
