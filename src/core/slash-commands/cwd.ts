/** `/cwd [dir]`: shows the working directory, or moves the session to another (tools run there from now on). */
import type { SlashCommand } from "./types.js";

export const cwdCommand: SlashCommand = {
  name: "cwd",
  description: "Show or change the working directory",
  argsHint: "[dir]",
  run: ({ session, args }) => {
    if (args === "") return { kind: "message", text: `Working directory: ${session.cwd}` };
    const refused = session.dispatch({ type: "set_cwd", path: args });
    if (refused) return { kind: "message", level: "error", text: refused };
    const { branch } = session.workspace.context;
    return { kind: "message", text: `Working directory: ${session.cwd}${branch ? ` (branch ${branch})` : ""}` };
  },
};
