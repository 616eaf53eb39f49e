/** /hooks: which hooks this session runs, from which file, for which event (and what could not load). */
import type { SlashCommand } from "./types.js";

const WHERE =
  "Hooks are read from $AGENT_HOME/hooks/*.json (and Copilot's home's hooks/), <git root>/.github/hooks/*.json (where the repository root is trusted) and the `hooks` of settings.json.";

export const hooksCommand: SlashCommand = {
  name: "hooks",
  description: "List the hooks loaded for this session and where they come from",
  run: ({ session }) => {
    const hooks = session.hooks;
    const definitions = hooks?.definitions ?? [];
    const problems = hooks?.problems ?? [];
    if (definitions.length === 0 && problems.length === 0) return { kind: "message", text: `No hooks are loaded. ${WHERE}` };
    const byFile = new Map<string, string[]>();
    for (const hook of definitions) {
      const key = `${hook.source.file} (${hook.source.kind})`;
      const lines = byFile.get(key) ?? [];
      lines.push(`  ${hook.event}${hook.matcher ? ` [${hook.matcher.source.slice(4, -2)}]` : ""}: ${hook.command} (timeout ${hook.timeoutMs / 1000} s)`);
      byFile.set(key, lines);
    }
    const sections = [...byFile].map(([file, lines]) => `${file}\n${lines.join("\n")}`);
    const skipped = problems.length > 0 ? [`Not loaded:\n${problems.map((problem) => `  ${problem}`).join("\n")}`] : [];
    return {
      kind: "message",
      text: [`${definitions.length} hook(s) loaded:`, ...sections, ...skipped].join("\n\n"),
      ...(problems.length > 0 ? { level: "warning" as const } : {}),
    };
  },
};
