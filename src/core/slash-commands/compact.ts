import type { SlashCommand } from "./types.js";

/**
 * `/compact [focus]`: summarises the conversation into a checkpoint now and continues from the summary.
 * What happened is told by session.compaction_start/complete; a refusal that never started one (nothing to
 * compact, the agent is working) comes back as a warning.
 */
export const compactCommand: SlashCommand = {
  name: "compact",
  description: "Summarise the conversation so far to free context",
  argsHint: "[focus instructions]",
  run: async ({ session, args }) => {
    const result = await session.dispatch({ type: "compact", ...(args !== "" ? { focus: args } : {}) });
    if (result.success || result.preCompactionTokens !== undefined) return { kind: "done" };
    return { kind: "message", level: "warning", text: `Nothing was compacted: ${result.error ?? "unknown reason"}` };
  },
};
