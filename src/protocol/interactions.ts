/**
 * The questions the engine asks a person or a client (seed 002's `*.requested` events) and their answers.
 * Each kind of question has one request shape and one reply shape; the reply schemas let a transport
 * (JSON-RPC, ACP) validate what a client sends. They are built at their first use (z.lazy): a run that
 * asks nobody anything never pays for them.
 */
import { z } from "zod";
import type { EventData, PermissionOption } from "./events/index.js";

export const permissionReplySchema = z.lazy(() =>
  z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("approve-once") }),
    z.object({ kind: z.literal("approve-for-session") }),
    z.object({ kind: z.literal("approve-always") }),
    /** `unavailable`: nobody could decide (the client's user is away), which is no one's refusal. */
    z.object({ kind: z.literal("deny"), message: z.string().optional(), unavailable: z.boolean().optional() }),
  ]),
);
export type PermissionReply = z.infer<typeof permissionReplySchema>;

/** ask_user: the answer typed or chosen, or no answer at all. */
export const userInputReplySchema = z.lazy(() =>
  z.union([z.object({ answer: z.string(), wasFreeform: z.boolean().optional() }), z.object({ cancelled: z.literal(true) })]),
);
export type UserInputReply = z.infer<typeof userInputReplySchema>;

export const planActionSchema = z.lazy(() => z.enum(["exit_only", "interactive", "autopilot", "autopilot_fleet"]));
export type PlanAction = z.infer<typeof planActionSchema>;

/** exit_plan_mode: accept with an action, or send feedback instead. */
export const planApprovalReplySchema = z.lazy(() =>
  z.object({
    approved: z.boolean(),
    selectedAction: planActionSchema.optional(),
    feedback: z.string().optional(),
  }),
);
export type PlanApprovalReply = z.infer<typeof planApprovalReplySchema>;

/**
 * A tool the client implements: what its handler returned. `resultType` is the SDK's word for a result that is
 * not a success (`rejected` ends the turn); `threw`: the handler threw, and what it threw is not shown to the model.
 */
export const externalToolReplySchema = z.lazy(() =>
  z.object({
    content: z.string(),
    success: z.boolean().optional(),
    resultType: z.enum(["failure", "rejected", "denied", "timeout"]).optional(),
    threw: z.boolean().optional(),
  }),
);
export type ExternalToolReply = z.infer<typeof externalToolReplySchema>;

/** An elicitation form (MCP's, and ask_user's form variant). */
export const elicitationReplySchema = z.lazy(() =>
  z.object({
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.record(z.string(), z.unknown()).optional(),
  }),
);
export type ElicitationReply = z.infer<typeof elicitationReplySchema>;

/** Every kind of question, with its reply. */
export interface InteractionReplies {
  permission: PermissionReply;
  user_input: UserInputReply;
  exit_plan_mode: PlanApprovalReply;
  external_tool: ExternalToolReply;
  elicitation: ElicitationReply;
}
export type InteractionKind = keyof InteractionReplies;

export const interactionReplySchemas: { [K in InteractionKind]: z.ZodType<InteractionReplies[K]> } = {
  permission: permissionReplySchema,
  user_input: userInputReplySchema,
  exit_plan_mode: planApprovalReplySchema,
  external_tool: externalToolReplySchema,
  elicitation: elicitationReplySchema,
};

/** Any reply; the broker checks it against the kind of the request it answers. */
export type InteractionReply = InteractionReplies[InteractionKind];

/** What each kind asks: its `*.requested` event data without the request id. */
export interface InteractionRequests {
  permission: Omit<EventData<"permission.requested">, "requestId">;
  user_input: Omit<EventData<"user_input.requested">, "requestId">;
  exit_plan_mode: Omit<EventData<"exit_plan_mode.requested">, "requestId">;
  external_tool: Omit<EventData<"external_tool.requested">, "requestId">;
  elicitation: Omit<EventData<"elicitation.requested">, "requestId">;
}

/**
 * Who answered: a person or client, nobody (the kind's headless reply), an interrupt, or a rule given while
 * it waited ("yes for this session" to another question that covers this one).
 */
export type AnswerSource = "person" | "headless" | "aborted" | "rule";

export { unansweredReply, type Unanswered } from "./unanswered-replies.js";

/** The answers a permission question offers; a request without a list offers only yes once and no. */
export function offeredOptions(data: { options?: PermissionOption[] | undefined }): PermissionOption[] {
  return (
    data.options ?? [
      { id: "allow-once", kind: "allow_once", label: "Yes" },
      { id: "reject", kind: "reject_once", label: "No" },
    ]
  );
}

const OPTION_REPLIES: Record<PermissionOption["kind"], PermissionReply> = {
  allow_once: { kind: "approve-once" },
  allow_session: { kind: "approve-for-session" },
  allow_always: { kind: "approve-always" },
  reject_once: { kind: "deny" },
};

/** The reply that choosing this option gives. */
export function optionReply(option: Pick<PermissionOption, "kind">): PermissionReply {
  return OPTION_REPLIES[option.kind];
}

export interface Answer<K extends InteractionKind> {
  reply: InteractionReplies[K];
  source: AnswerSource;
}
