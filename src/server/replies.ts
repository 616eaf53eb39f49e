/**
 * The client's answers in the SDK's words, turned into the engine's replies (src/protocol/interactions.ts).
 * What cannot be read as an approval is a denial: an unknown or malformed answer never lets a call through.
 */
import type { ExternalToolReply, PermissionReply, PlanApprovalReply, PlanAction, UserInputReply } from "../protocol/interactions.js";

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === "object" && value !== null && !Array.isArray(value);

/** session.permissions.handlePendingPermissionRequest's `result` (current and legacy kinds). */
export function permissionReply(result: unknown): PermissionReply {
  const kind = isObject(result) && typeof result.kind === "string" ? result.kind : "";
  switch (kind) {
    case "approve-once":
    case "approved":
      return { kind: "approve-once" };
    case "approve-for-session":
    case "approved-for-session":
      return { kind: "approve-for-session" };
    case "approve-for-location":
    case "approved-for-location":
    case "approve-permanently":
      return { kind: "approve-always" };
    case "reject":
    case "denied-interactively-by-user": {
      // A person's plain no ends the turn (Copilot's reject); with feedback the model goes on with what they said.
      const feedback = isObject(result) && typeof result.feedback === "string" && result.feedback !== "" ? result.feedback : undefined;
      return feedback ? { kind: "deny", message: feedback } : { kind: "deny" };
    }
    default: {
      const feedback = isObject(result) && typeof result.feedback === "string" ? result.feedback : undefined;
      const why = kind === "user-not-available" ? "The client's user is not available to approve it." : `The client refused it (${kind || "no answer"}).`;
      return { kind: "deny", message: feedback ? `${why} Feedback: ${feedback}` : why };
    }
  }
}

const RESULT_TYPES = ["failure", "rejected", "denied", "timeout"] as const;

/**
 * session.tools.handlePendingToolCall: a string, a ToolResultObject, or the message of what the handler threw
 * (kept from the model, as Copilot does: it may hold secrets or a stack trace). A ToolResultObject's
 * textResultForLlm is what the model reads, whatever its resultType; its `error` is for the client's own log.
 */
export function externalToolReply(result: unknown, error: unknown): ExternalToolReply {
  if (typeof error === "string") return { content: error, success: false, resultType: "failure", threw: true };
  if (result === undefined || result === null) return { content: "" };
  if (typeof result === "string") return { content: result };
  if (isObject(result) && typeof result.textResultForLlm === "string") {
    const resultType = RESULT_TYPES.find((type) => type === result.resultType);
    return { content: result.textResultForLlm, ...(resultType ? { success: false, resultType } : {}) };
  }
  return { content: JSON.stringify(result) };
}

/** userInput.request's answer `{answer, wasFreeform}`. */
export function userInputReply(result: unknown): UserInputReply {
  if (isObject(result) && typeof result.answer === "string") return { answer: result.answer, wasFreeform: result.wasFreeform === true };
  return { cancelled: true };
}

const PLAN_ACTIONS: readonly PlanAction[] = ["exit_only", "interactive", "autopilot", "autopilot_fleet"];

/** exitPlanMode.request's answer `{approved, selectedAction?, feedback?}`. */
export function planReply(result: unknown): PlanApprovalReply {
  if (!isObject(result)) return { approved: false };
  const action = PLAN_ACTIONS.find((candidate) => candidate === result.selectedAction);
  return {
    approved: result.approved === true,
    ...(action ? { selectedAction: action } : {}),
    ...(typeof result.feedback === "string" ? { feedback: result.feedback } : {}),
  };
}
