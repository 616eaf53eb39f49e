import type { CompactResult, RunResult } from "../../protocol/commands.js";
import type { SlashCommand } from "./types.js";

/** Resolves once the callbacks already queued have run: a refusal (no I/O on its path) has settled by then. */
const afterQueuedWork = () => new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)));

function runResult(result: CompactResult): RunResult {
  if (result.success) return { outcome: "completed", finalMessage: "", continuations: 0 };
  if (result.interrupted) return { outcome: "aborted", finalMessage: "", continuations: 0 };
  return { outcome: "error", finalMessage: "", continuations: 0, error: { kind: "compaction", message: result.error ?? "The compaction failed." } };
}

/**
 * `/compact [focus]`: summarises the conversation into a checkpoint now and continues from the summary.
 * What happens is told by session.compaction_start/complete. A refusal that never started one (nothing to
 * compact, the agent is working) comes back as a warning; a compaction that started is waited for like a
 * prompt's run, so the TUI does not hold the keyboard meanwhile (Esc stops it) and `-p "/compact"` exits
 * non-zero when it fails.
 */
export const compactCommand: SlashCommand = {
  name: "compact",
  description: "Summarise the conversation so far to free context",
  argsHint: "[focus instructions]",
  run: async ({ session, args }) => {
    const compacting = session.dispatch({ type: "compact", ...(args !== "" ? { focus: args } : {}) });
    const settled = await Promise.race([compacting, afterQueuedWork()]);
    if (settled && !settled.success && settled.preCompactionTokens === undefined) {
      return { kind: "message", level: "warning", text: `Nothing was compacted: ${settled.error ?? "unknown reason"}` };
    }
    return { kind: "run", run: compacting.then(runResult) };
  },
};
