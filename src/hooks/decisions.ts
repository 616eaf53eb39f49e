/**
 * What the hooks of an event decided, read from their answers (pure). Each reader applies Copilot's rule for
 * its event; when no hook said anything usable the caller's default applies.
 */
import type { HookAnswer } from "./hook-set.js";

export interface ToolHookDecision {
  decision?: "allow" | "deny" | "ask";
  reason?: string;
  /** Arguments to use instead of the model's (the caller validates them again). */
  modifiedArgs?: Record<string, unknown>;
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/** Why a broken policy hook denied, as the model and the person read it. */
export const hookFailedReason = (problem: string): string => `the hook failed: ${problem}`;

/** A deny (or exit code 2, or a policy hook that broke) wins; otherwise "ask" over "allow"; the last rewrite of the arguments counts. */
export function toolDecision(answers: readonly HookAnswer[]): ToolHookDecision {
  const result: ToolHookDecision = {};
  for (const answer of answers) {
    if (answer.failed !== undefined) return { decision: "deny", reason: hookFailedReason(answer.failed) };
    if (answer.blocked !== undefined) return { decision: "deny", reason: answer.blocked };
    const output = answer.output ?? {};
    const decision = output.permissionDecision;
    const reason = text(output.permissionDecisionReason);
    if (decision === "deny") return { decision: "deny", ...(reason ? { reason } : {}) };
    if (decision === "ask" || (decision === "allow" && result.decision !== "ask")) {
      result.decision = decision;
      if (reason) result.reason = reason;
    }
    const modified = output.modifiedArgs;
    if (modified !== null && typeof modified === "object" && !Array.isArray(modified)) result.modifiedArgs = modified as Record<string, unknown>;
  }
  return result;
}

export const isDeny = (answer: HookAnswer): boolean =>
  answer.failed !== undefined || answer.blocked !== undefined || answer.output?.permissionDecision === "deny";

/** A permissionRequest hook answering in place of the dialog: allow or deny, or nothing (the dialog asks). */
export function permissionDecision(answers: readonly HookAnswer[]): { approved: boolean; reason?: string } | undefined {
  const decided = toolDecision(answers);
  if (decided.decision === "deny") return { approved: false, ...(decided.reason ? { reason: decided.reason } : {}) };
  if (decided.decision === "allow") return { approved: true };
  return undefined;
}

/** Every hook's `additionalContext`, in order. */
export function additionalContext(answers: readonly HookAnswer[]): string | undefined {
  const parts = answers.flatMap((answer) => (text(answer.output?.additionalContext) ? [String(answer.output?.additionalContext)] : []));
  return parts.length > 0 ? parts.join("\n\n") : undefined;
}

/** What userPromptSubmitted decided: context to send with the prompt, a prompt to send instead, or a block that drops it. */
export interface PromptHookDecision {
  context?: string;
  /** The prompt the model gets instead (the last hook's `modifiedPrompt`). */
  prompt?: string;
  /** Why the prompt must not reach the model (exit code 2's stderr, or a `{"decision":"block"}` answer's reason). */
  blocked?: string;
}

/** The last answer's string field, when any hook gave one. */
function lastText(answers: readonly HookAnswer[], field: string): string | undefined {
  let found: string | undefined;
  for (const answer of answers) if (typeof answer.output?.[field] === "string") found = answer.output[field] as string;
  return found;
}

/** A block (exit code 2 or `decision: "block"`) wins over anything else; otherwise every hook's context, in order, and the last rewrite. */
export function promptDecision(answers: readonly HookAnswer[]): PromptHookDecision {
  for (const answer of answers) {
    if (answer.blocked !== undefined) return { blocked: answer.blocked };
    if (answer.output?.decision === "block") return { blocked: text(answer.output.reason) ?? "A userPromptSubmitted hook blocked the prompt." };
  }
  const context = additionalContext(answers);
  const prompt = lastText(answers, "modifiedPrompt");
  return { ...(context ? { context } : {}), ...(prompt !== undefined ? { prompt } : {}) };
}

/** userPromptTransformed: the message the model gets instead of the one built (the last hook's rewrite). */
export const transformedPrompt = (answers: readonly HookAnswer[]): string | undefined => lastText(answers, "modifiedTransformedPrompt");

/** postToolUse: the result the model gets instead (the last hook's `modifiedResult`); a resultType other than success fails it. */
export function modifiedResult(answers: readonly HookAnswer[]): { success: boolean; text: string } | undefined {
  let found: { success: boolean; text: string } | undefined;
  for (const answer of answers) {
    const result = answer.output?.modifiedResult as { textResultForLlm?: unknown; resultType?: unknown } | undefined;
    if (typeof result?.textResultForLlm === "string")
      found = { text: result.textResultForLlm, success: result.resultType === undefined || result.resultType === "success" };
  }
  return found;
}

/** preMcpToolCall: the `_meta` to send (null: none), or undefined when no hook said (the request's stays). */
export function mcpMeta(answers: readonly HookAnswer[]): { meta?: Record<string, unknown> | null } {
  let found: { meta?: Record<string, unknown> | null } = {};
  for (const answer of answers) if (answer.output && "metaToUse" in answer.output) found = { meta: answer.output.metaToUse as Record<string, unknown> | null };
  return found;
}

/** agentStop / subagentStop: the first block's reason becomes the next prompt. */
export function stopBlock(answers: readonly HookAnswer[]): string | undefined {
  for (const answer of answers) {
    if (answer.blocked !== undefined) return answer.blocked;
    if (answer.output?.decision === "block") return text(answer.output.reason) ?? "A stop hook asked the agent to continue.";
  }
  return undefined;
}

export const isBlock = (answer: HookAnswer): boolean => answer.blocked !== undefined || answer.output?.decision === "block";
