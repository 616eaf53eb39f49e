/**
 * A running subagent's use against its budget, in one short run of text: "turns 3/50 · 12.4k/100k tokens ·
 * 1m 05s/5m 00s". Parts without a limit show the use alone; time shows only when it has a limit (the row
 * shows the elapsed time already).
 */
import type { AgentUse } from "../state/transcript-types.js";
import { formatElapsed } from "./running-tools.js";

/** 950, 12.4k, 1.2M */
export function shortCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0).replace(/\.0$/, "")}k`;
  return `${(count / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

export function formatAgentUse(use: AgentUse, elapsedMs: number): string {
  const budget = use.budget ?? {};
  const parts = [
    `turns ${use.turns}${budget.maxTurns !== undefined ? `/${budget.maxTurns}` : ""}`,
    `${shortCount(use.tokens)}${budget.maxTokens !== undefined ? `/${shortCount(budget.maxTokens)}` : ""} tokens`,
  ];
  if (budget.maxDurationMs !== undefined) parts.push(`${formatElapsed(elapsedMs)}/${formatElapsed(budget.maxDurationMs)}`);
  return parts.join(" · ");
}
