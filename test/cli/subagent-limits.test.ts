/** Subagent limits: --max-turns, then the environment (ours, then Copilot's name), then settings.json, then defaults. */
import { describe, expect, it } from "vitest";
import { subagentLimits } from "../../src/cli/subagent-limits.js";

describe("subagent limits", () => {
  it("take the flag, then the environment, then settings, then the defaults; concurrency is capped at 256", () => {
    expect(subagentLimits({}, {}, {})).toEqual({ maxDepth: 6, maxConcurrent: 8, maxTurns: 50 });
    expect(
      subagentLimits({ maxTurns: 3 }, { COPILOT_SUBAGENT_MAX_DEPTH: "2", AGENT_SUBAGENT_MAX_CONCURRENT: "999" }, { subagents: { maxTurns: 9, maxDepth: 4 } }),
    ).toEqual({
      maxDepth: 2,
      maxConcurrent: 256,
      maxTurns: 3,
    });
    expect(subagentLimits({}, { AGENT_SUBAGENT_MAX_DEPTH: "nope" }, { subagents: { maxDepth: 4, maxConcurrency: 2, maxTurns: 9 } })).toEqual({
      maxDepth: 4,
      maxConcurrent: 2,
      maxTurns: 9,
    });
  });

  it("take the token, time and session budgets from settings", () => {
    const settings = { subagents: { maxTokens: 5000, maxDurationMs: 60_000, sessionMaxTurns: 200, sessionMaxTokens: 90_000 } };
    expect(subagentLimits({}, {}, settings)).toEqual({
      maxDepth: 6,
      maxConcurrent: 8,
      maxTurns: 50,
      maxTokens: 5000,
      maxDurationMs: 60_000,
      sessionMaxTurns: 200,
      sessionMaxTokens: 90_000,
    });
  });
});
