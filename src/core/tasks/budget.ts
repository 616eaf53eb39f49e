/**
 * Subagent budgets: what one agent may use (model calls per prompt, tokens, working time) and what all the
 * subagents of a session may use together (model calls, tokens). A budget hit stops the agent; the reason
 * says which budget and where it is set, so a person knows what to raise.
 */

/** One agent's limits (undefined: no limit). */
export interface AgentBudget {
  /** Model calls per prompt (a runaway guard; --max-turns, subagents.maxTurns). */
  maxTurns?: number;
  /** Tokens (input + output, every call) over the agent's life (subagents.maxTokens). */
  maxTokens?: number;
  /** Working time over the agent's life; time spent idle waiting for a message does not count (subagents.maxDurationMs). */
  maxDurationMs?: number;
}

/** The session's totals for all its subagents together. */
export interface SessionBudget {
  /** subagents.sessionMaxTurns */
  maxTurns?: number;
  /** subagents.sessionMaxTokens */
  maxTokens?: number;
}

/** 100000 → "100,000" (without toLocaleString: ICU is slow, and this runs as each agent starts). */
const formatCount = (count: number) => String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

const calls = (count: number) => `${formatCount(count)} model call${count === 1 ? "" : "s"}`;

export function describeDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
}

/** Why an agent stopped, in words: the budget, its size, and the setting that sets it. */
export const budgetReasons = {
  turns: (max: number) => `it reached its turn budget (${calls(max)} per prompt; --max-turns or subagents.maxTurns)`,
  tokens: (max: number) => `it reached its token budget (${formatCount(max)} tokens; subagents.maxTokens)`,
  duration: (max: number) => `it reached its time budget (${describeDuration(max)}; subagents.maxDurationMs)`,
  sessionTurns: (max: number) => `the session's subagents reached their turn budget (${calls(max)} in all; subagents.sessionMaxTurns)`,
  sessionTokens: (max: number) => `the session's subagents reached their token budget (${formatCount(max)} tokens in all; subagents.sessionMaxTokens)`,
};

/** What all the subagents of one session have used, against the session's budget. */
export class BudgetLedger {
  turns = 0;
  tokens = 0;

  constructor(readonly limits: SessionBudget = {}) {}

  addTurn(): void {
    this.turns++;
  }

  addTokens(count: number): void {
    this.tokens += count;
  }

  /** Why no more subagent model calls may be made (the totals are spent), or undefined. */
  spent(): string | undefined {
    const { maxTurns, maxTokens } = this.limits;
    if (maxTurns !== undefined && this.turns >= maxTurns) return budgetReasons.sessionTurns(maxTurns);
    if (maxTokens !== undefined && this.tokens >= maxTokens) return budgetReasons.sessionTokens(maxTokens);
    return undefined;
  }
}
