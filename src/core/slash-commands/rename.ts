/** `/rename [name]`: names the session (listing, `--resume <name>`); without a name, one is made from its first prompt. */
import { readSessionEvents } from "../session-admin/session-report.js";
import type { SlashCommand, SlashCommandContext, SlashCommandResult } from "./types.js";

/** A short name from the first thing the user asked: its first words, at most about 50 characters. */
export function nameFromPrompt(prompt: string): string {
  const words = prompt.replace(/\s+/g, " ").trim().split(" ");
  let name = "";
  for (const word of words) {
    if (name !== "" && name.length + word.length + 1 > 50) break;
    name = name === "" ? word.slice(0, 50) : `${name} ${word}`;
  }
  return name.replace(/[.,;:!?]+$/, "");
}

export async function renameSession({ session, args }: SlashCommandContext): Promise<SlashCommandResult> {
  let name = args;
  if (name === "") {
    const first = (await readSessionEvents(session)).find((event) => !event.agentId && event.type === "user.message" && event.data.source === undefined);
    const prompt = first?.type === "user.message" ? first.data.content : "";
    name = nameFromPrompt(prompt);
    if (name === "") return { kind: "message", level: "error", text: "Nothing to name the session after yet: /rename <name>." };
  }
  const other = await session.workspace.otherSessionNamed(name);
  if (other)
    return {
      kind: "message",
      level: "error",
      text: `Session ${other} is already named "${name}": agent --resume <name> could not tell them apart. Pick another name.`,
    };
  const refused = session.dispatch({ type: "rename", name });
  return refused ? { kind: "message", level: "error", text: refused } : { kind: "message", text: `Session renamed to "${name.replace(/\s+/g, " ").trim()}".` };
}

export const renameCommand: SlashCommand = {
  name: "rename",
  description: "Rename the session (or name it after its first prompt)",
  argsHint: "[name]",
  run: renameSession,
};
