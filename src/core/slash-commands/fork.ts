import type { SlashCommand, SlashCommandResult } from "./types.js";

/** `/fork [name]`: a copy of this session to go on in, leaving this one as it is. */
export const forkCommand: SlashCommand = {
  name: "fork",
  aliases: ["branch"],
  description: "Fork the session: go on in a copy of it, leaving this one as it is",
  argsHint: "[name]",
  run: async ({ session, args }): Promise<SlashCommandResult> => {
    const forked = await session.dispatch({ type: "fork", ...(args !== "" ? { name: args } : {}) });
    if (!forked.ok) return { kind: "message", level: "error", text: forked.error };
    return {
      kind: "switch-session",
      sessionId: forked.sessionId,
      note: `Forked session ${session.id} into ${forked.sessionId}${forked.name ? ` (${forked.name})` : ""}.`,
    };
  },
};
