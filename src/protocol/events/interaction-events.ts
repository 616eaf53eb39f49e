import { z } from "zod";
import { ephemeral } from "./define-event.js";
import { permissionRequestSchema, permissionResultKindSchema } from "./shared-schemas.js";

/**
 * One answer a permission question offers: worked out once, by the permission broker, from what an approval
 * would grant; every face shows these labels, and an approval grants exactly what its label says.
 */
export const permissionOptionSchema = z.object({
  id: z.string(),
  kind: z.enum(["allow_once", "allow_session", "allow_always", "reject_once"]),
  label: z.string(),
});
export type PermissionOption = z.infer<typeof permissionOptionSchema>;

/** Requests for a human (or an SDK client) to answer, and their resolution. All ephemeral. */
export const interactionEvents = {
  "permission.requested": ephemeral(
    z.object({ requestId: z.string(), permissionRequest: permissionRequestSchema, options: z.array(permissionOptionSchema).optional() }),
  ),
  "permission.completed": ephemeral(
    z.object({
      requestId: z.string(),
      result: z.object({ kind: permissionResultKindSchema, rule: z.string().optional(), message: z.string().optional() }),
      decisionSource: z.enum(["rule", "human_response", "session_approval", "no_user", "hook"]).optional(),
    }),
  ),
  "user_input.requested": ephemeral(
    z.object({
      requestId: z.string(),
      question: z.string(),
      choices: z.array(z.string()).optional(),
      allowFreeform: z.boolean().optional(),
      toolCallId: z.string().optional(),
    }),
  ),
  "user_input.completed": ephemeral(z.object({ requestId: z.string(), answer: z.string().optional(), wasFreeform: z.boolean().optional() })),
  "elicitation.requested": ephemeral(
    z.object({
      requestId: z.string(),
      message: z.string(),
      toolCallId: z.string().optional(),
      elicitationSource: z.string().optional(),
      mode: z.literal("form").optional(),
      requestedSchema: z.object({
        type: z.literal("object"),
        properties: z.record(z.string(), z.unknown()),
        required: z.array(z.string()).optional(),
      }),
    }),
  ),
  "elicitation.completed": ephemeral(
    z.object({
      requestId: z.string(),
      action: z.enum(["accept", "decline", "cancel"]).optional(),
      content: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  "external_tool.requested": ephemeral(
    z.object({
      requestId: z.string(),
      sessionId: z.string(),
      toolCallId: z.string(),
      toolName: z.string(),
      arguments: z.unknown().optional(),
      workingDirectory: z.string().optional(),
    }),
  ),
  "external_tool.completed": ephemeral(z.object({ requestId: z.string() })),
  "exit_plan_mode.requested": ephemeral(
    z.object({
      requestId: z.string(),
      summary: z.string(),
      planContent: z.string(),
      actions: z.array(z.string()),
      recommendedAction: z.string(),
    }),
  ),
  "exit_plan_mode.completed": ephemeral(
    z.object({
      requestId: z.string(),
      approved: z.boolean().optional(),
      selectedAction: z.string().optional(),
      feedback: z.string().optional(),
    }),
  ),
  "command.queued": ephemeral(z.object({ requestId: z.string(), command: z.string() })),
  /** A slash command is running (its line as typed); command.completed follows when it is done. */
  "command.execute": ephemeral(z.object({ requestId: z.string(), command: z.string(), commandName: z.string(), args: z.string() })),
  "command.completed": ephemeral(z.object({ requestId: z.string() })),
} as const;
