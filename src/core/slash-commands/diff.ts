/** `/diff`: the working tree's changes (staged, unstaged, untracked), shown as a diff without asking the model. */
import { workingTreeDiff } from "../session-admin/working-tree-diff.js";
import type { SlashCommand, SlashCommandResult } from "./types.js";

export const diffCommand: SlashCommand = {
  name: "diff",
  description: "Show the working tree's changes",
  run: async ({ session }): Promise<SlashCommandResult> => {
    const diff = await workingTreeDiff(session.cwd);
    if (!diff) return { kind: "message", level: "warning", text: `${session.cwd} is not in a git repository: /diff shows a repository's changes.` };
    if (diff.patch === "") return { kind: "message", text: `No changes in ${diff.root}.` };
    const plural = diff.files === 1 ? "" : "s";
    return { kind: "diff", patch: diff.patch, summary: `${diff.files} file${plural} changed, +${diff.added} -${diff.removed} (${diff.root})` };
  },
};
