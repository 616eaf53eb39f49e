/** `/add-dir <dir>`: tools may read and write there without asking, for the rest of this session (like --add-dir). */
import type { SlashCommand } from "./types.js";

export const addDirCommand: SlashCommand = {
  name: "add-dir",
  description: "Allow tools to use another directory without asking (this session)",
  argsHint: "<dir>",
  run: ({ session, args }) => {
    if (args === "") return { kind: "message", level: "error", text: "Usage: /add-dir <dir>" };
    const refused = session.dispatch({ type: "add_dir", path: args });
    return refused
      ? { kind: "message", level: "error", text: refused }
      : { kind: "message", text: `Added ${session.workspace.resolvePath(args)} to the allowed directories.` };
  },
};
