import { promptTemplate } from "../../config/prompt-templates.js";
import { gatherReviewChanges } from "../orchestrate/review-changes.js";
import type { SlashCommand } from "./types.js";

/** Untracked files are listed (a few hundred at most: a repository without a .gitignore has thousands). */
const MAX_UNTRACKED_LISTED = 200;

function describeUntracked(files: readonly string[]): string {
  if (files.length === 0) return "";
  const listed = files.slice(0, MAX_UNTRACKED_LISTED).map((file) => `- ${file}`);
  if (files.length > MAX_UNTRACKED_LISTED) listed.push(`- … and ${files.length - MAX_UNTRACKED_LISTED} more (git ls-files --others --exclude-standard)`);
  return `Untracked files (new, not in any diff; read them in full):\n${listed.join("\n")}`;
}

/**
 * `/review [range] [instructions]`: git says what changed (before any model call: with nothing to review the
 * answer is local), then the main agent is asked to delegate the review to the code-review agent and to
 * present its findings.
 */
export const reviewCommand: SlashCommand = {
  name: "review",
  description: "Review the working tree's changes (or a ref range) with the code-review agent",
  argsHint: "[main..HEAD] [instructions]",
  run: async ({ session, args }) => {
    const gathered = await gatherReviewChanges(session.cwd, args);
    if (gathered.kind === "nothing") return { kind: "message", text: gathered.message, ...(gathered.level ? { level: gathered.level } : {}) };
    const { changes } = gathered;
    const prompt = promptTemplate("review", {
      scope: changes.scope,
      cwd: session.cwd,
      instructions: changes.instructions || "(none: a general review for real problems)",
      commands: changes.commands.map((command) => `- \`${command}\``).join("\n"),
      untracked: describeUntracked(changes.untracked),
      diff: changes.diff ? `\`\`\`diff\n${changes.diff.trimEnd()}\n\`\`\`` : "(no diff: only the untracked files above)",
    });
    return { kind: "prompt", prompt, source: "command:review" };
  },
};
