/**
 * A session's limits (an SDK app's sessionLimits, Copilot's `maxAiCredits`) and what the model is told of
 * them: Copilot's `<session_limits_status>` message, a user message of its own after the next prompt once
 * they are set or changed (the state fold remembers whether it was said). AI credits are GitHub's billing
 * unit; this agent's providers spend none (session.usage_checkpoint's totalNanoAiu stays 0), so what remains
 * is the whole limit.
 */
import type { SessionLimits } from "../protocol/events/index.js";
import type { Emit } from "./event-sink.js";
import type { SessionState } from "./state/session-state.js";

const sameLimits = (a: SessionLimits | null, b: SessionLimits | null): boolean => a === b || (a !== null && b !== null && a.maxAiCredits === b.maxAiCredits);

/** set_session_limits: a change is recorded (and told to the model with the next prompt); the same limits change nothing. */
export function setSessionLimits(state: SessionState, emit: Emit, limits: SessionLimits | null): void {
  const next = limits && limits.maxAiCredits !== undefined ? { maxAiCredits: limits.maxAiCredits } : null;
  if (sameLimits(state.sessionLimits, next)) return;
  emit("session.session_limits_changed", { sessionLimits: next });
}

/** The status message for the next prompt: when the limits are new to the model, else undefined. */
export function limitsStatusToTell(state: SessionState): string | undefined {
  const limits = state.sessionLimits;
  if (!limits || state.sessionLimitsTold || limits.maxAiCredits === undefined) return undefined;
  return [
    "<session_limits_status>",
    `Remaining session limits: ${limits.maxAiCredits} AI credits. Later session_limits_status messages supersede earlier ones. Be frugal; avoid optional exploration and unnecessary tool calls.`,
    "</session_limits_status>",
  ].join("\n");
}
