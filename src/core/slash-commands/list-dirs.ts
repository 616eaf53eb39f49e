/** `/list-dirs`: where tools may read and write without asking, and why each is allowed. */
import type { SlashCommand } from "./types.js";

export const listDirsCommand: SlashCommand = {
  name: "list-dirs",
  description: "List the directories tools may use without asking",
  run: ({ session }) => {
    const dirs = session.workspace.allowedDirectories;
    const width = Math.max(...dirs.map((dir) => dir.path.length));
    return { kind: "message", text: ["Allowed directories:", ...dirs.map((dir) => `  ${dir.path.padEnd(width)}  ${dir.source}`)].join("\n") };
  },
};
