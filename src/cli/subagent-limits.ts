/**
 * The subagent limits for a run: the command line first, then the environment (ours, then Copilot's name),
 * then settings.json's `subagents`, then the defaults. Concurrency is capped at 256. The token, time and
 * session budgets come from settings only (no limit by default).
 */
import type { Settings } from "../config/settings.js";
import { DEFAULT_SUBAGENT_LIMITS, type SubagentLimits } from "../core/index.js";

const MAX_CONCURRENT_CAP = 256;

function positive(value: string | undefined): number | undefined {
  const number = Number(value);
  return value !== undefined && Number.isInteger(number) && number > 0 ? number : undefined;
}

export function subagentLimits(flags: { maxTurns?: number }, env: NodeJS.ProcessEnv, settings: Settings): SubagentLimits {
  const fromSettings = settings.subagents ?? {};
  return {
    maxDepth: positive(env.AGENT_SUBAGENT_MAX_DEPTH) ?? positive(env.COPILOT_SUBAGENT_MAX_DEPTH) ?? fromSettings.maxDepth ?? DEFAULT_SUBAGENT_LIMITS.maxDepth,
    maxConcurrent: Math.min(
      MAX_CONCURRENT_CAP,
      positive(env.AGENT_SUBAGENT_MAX_CONCURRENT) ??
        positive(env.COPILOT_SUBAGENT_MAX_CONCURRENT) ??
        fromSettings.maxConcurrency ??
        DEFAULT_SUBAGENT_LIMITS.maxConcurrent,
    ),
    maxTurns: flags.maxTurns ?? fromSettings.maxTurns ?? DEFAULT_SUBAGENT_LIMITS.maxTurns,
    ...(fromSettings.maxTokens !== undefined ? { maxTokens: fromSettings.maxTokens } : {}),
    ...(fromSettings.maxDurationMs !== undefined ? { maxDurationMs: fromSettings.maxDurationMs } : {}),
    ...(fromSettings.sessionMaxTurns !== undefined ? { sessionMaxTurns: fromSettings.sessionMaxTurns } : {}),
    ...(fromSettings.sessionMaxTokens !== undefined ? { sessionMaxTokens: fromSettings.sessionMaxTokens } : {}),
  };
}
