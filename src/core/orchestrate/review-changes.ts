/**
 * What `/review` reviews, gathered with git before any model call: the working tree's staged, unstaged and
 * untracked changes, or the changes of a ref range (`main..HEAD`, `main...feature`, a single ref) when the
 * first word of the arguments names one. Nothing to review is an answer in itself (no model call).
 */
// execa loads with the first review, not with every session that could run one.
let execaModule: Promise<typeof import("execa")> | undefined;

export interface ReviewChanges {
  /** One line saying what is reviewed: "the working tree's changes", "the range main..HEAD". */
  scope: string;
  /** The commands that show the changes (for the reviewer, who can run them itself). */
  commands: string[];
  /** The diff text (possibly shortened, saying so), or undefined when there are only untracked files. */
  diff?: string;
  /** Untracked files (new files git does not know yet): the diff does not show them. */
  untracked: string[];
  /** The user's instructions: what followed the range, or all of the arguments. */
  instructions: string;
}

/** `warning`: git failed (a bad range), as opposed to a clean tree. */
export type GatheredReview = { kind: "changes"; changes: ReviewChanges } | { kind: "nothing"; message: string; level?: "warning" };

/** A diff longer than this is left to the reviewer to read with git itself. */
export const MAX_INLINE_DIFF_CHARS = 40_000;

async function git(cwd: string, args: readonly string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const { execa } = await (execaModule ??= import("execa"));
  const result = await execa("git", args, { cwd, reject: false, stripFinalNewline: false, env: { GIT_PAGER: "cat", GIT_OPTIONAL_LOCKS: "0" } });
  return { ok: result.exitCode === 0, stdout: String(result.stdout ?? ""), stderr: String(result.stderr ?? "") };
}

/** `a..b`, `a...b`, `..b`, `a..`: a range by its look (git checks the refs). */
const RANGE = /^[\w./@{}~^-]*\.\.\.?[\w./@{}~^-]*$/;

/** Whether the word names a commit (a branch, a tag, a sha, HEAD~2): asked of git, quietly. */
async function isCommit(cwd: string, word: string): Promise<boolean> {
  if (!/^[\w./@{}~^-]+$/.test(word) || word.startsWith("-")) return false;
  return (await git(cwd, ["rev-parse", "--verify", "--quiet", `${word}^{commit}`])).ok;
}

function shorten(diff: string): string {
  if (diff.length <= MAX_INLINE_DIFF_CHARS) return diff;
  return `${diff.slice(0, MAX_INLINE_DIFF_CHARS)}\n[The diff is ${diff.length} characters; the rest is not shown here. Run the commands above to read all of it.]`;
}

export async function gatherReviewChanges(cwd: string, args: string): Promise<GatheredReview> {
  const inside = await git(cwd, ["rev-parse", "--is-inside-work-tree"]);
  if (!inside.ok || inside.stdout.trim() !== "true") return { kind: "nothing", message: `Nothing to review: ${cwd} is not inside a git repository.` };

  const [first = "", ...rest] = args.split(/\s+/).filter((word) => word !== "");
  if (first !== "" && (RANGE.test(first) || (await isCommit(cwd, first)))) {
    const range = first;
    const diff = await git(cwd, ["diff", "--no-color", "--no-ext-diff", range, "--"]);
    if (!diff.ok)
      return { kind: "nothing", level: "warning", message: `Nothing to review: git could not diff ${range}: ${diff.stderr.trim() || "unknown error"}` };
    if (diff.stdout.trim() === "") return { kind: "nothing", message: `Nothing to review: ${range} has no changes.` };
    const scope = range.includes("..") ? `the changes of the range ${range}` : `the changes since ${range} (its commits and the working tree)`;
    return { kind: "changes", changes: { scope, commands: [`git diff ${range}`], diff: shorten(diff.stdout), untracked: [], instructions: rest.join(" ") } };
  }

  const [staged, unstaged, others] = await Promise.all([
    git(cwd, ["diff", "--cached", "--no-color", "--no-ext-diff"]),
    git(cwd, ["diff", "--no-color", "--no-ext-diff"]),
    git(cwd, ["ls-files", "--others", "--exclude-standard", "--full-name"]),
  ]);
  const untracked = others.stdout.split("\n").filter((line) => line !== "");
  const parts: string[] = [];
  if (staged.stdout.trim() !== "") parts.push(`# Staged (git diff --cached)\n${staged.stdout}`);
  if (unstaged.stdout.trim() !== "") parts.push(`# Unstaged (git diff)\n${unstaged.stdout}`);
  if (parts.length === 0 && untracked.length === 0) {
    return { kind: "nothing", message: "Nothing to review: the working tree has no staged, unstaged or untracked changes." };
  }
  return {
    kind: "changes",
    changes: {
      scope: "the working tree's changes (staged, unstaged and untracked)",
      commands: ["git diff --cached", "git diff", "git ls-files --others --exclude-standard"],
      ...(parts.length > 0 ? { diff: shorten(parts.join("\n")) } : {}),
      untracked,
      instructions: args.trim(),
    },
  };
}
