import { z } from "zod";
import { persisted } from "./define-event.js";
import { attachmentSchema } from "./shared-schemas.js";

/** Messages in the conversation, control events, sub-agents and skills. */
export const conversationEvents = {
  "user.message": persisted(
    z.object({
      content: z.string(),
      /** What the model receives: the content with the date header, tagged files, mode notices. */
      transformedContent: z.string().optional(),
      messageId: z.string().optional(),
      attachments: z.array(attachmentSchema).optional(),
      source: z.string().optional(),
      /** The line the person typed when a command built the prompt (`source: "command:review"`): `/review main..HEAD focus on auth`. */
      typedText: z.string().optional(),
      delivery: z.enum(["idle", "steering", "queued"]).optional(),
      agentMode: z.enum(["interactive", "plan", "autopilot", "shell"]).optional(),
      isAutopilotContinuation: z.boolean().optional(),
      interactionId: z.string().optional(),
      parentToolCallId: z.string().optional(),
      /** What a sessionStart hook added: the model gets it as a user message of its own before this one. */
      startContext: z.string().optional(),
      /** The session's limits as they stand, when they are new to the model: a user message of its own after this one. */
      limitsStatus: z.string().optional(),
    }),
  ),
  "system.message": persisted(
    z.object({
      content: z.string(),
      role: z.enum(["system", "developer"]),
      name: z.string().optional(),
      metadata: z.object({ promptVersion: z.string().optional(), variables: z.record(z.string(), z.unknown()).optional() }).optional(),
    }),
  ),
  "system.notification": persisted(z.object({ content: z.string(), kind: z.string().optional() })),
  abort: persisted(z.object({ reason: z.string() })),
  "subagent.started": persisted(
    z.object({
      toolCallId: z.string(),
      agentName: z.string(),
      agentDisplayName: z.string(),
      agentDescription: z.string(),
      model: z.string().optional(),
      agentType: z.string().optional(),
      executionMode: z.enum(["sync", "background"]).optional(),
      /** The agent's id (`explore-1`), as read_agent and /tasks name it (beside Copilot's fields). */
      agentId: z.string().optional(),
      /** The agent's budget (absent fields: no limit), for the UI to show use against it. */
      budget: z.object({ maxTurns: z.number().optional(), maxTokens: z.number().optional(), maxDurationMs: z.number().optional() }).optional(),
    }),
  ),
  "subagent.completed": persisted(
    z.object({
      toolCallId: z.string(),
      agentName: z.string(),
      agentDisplayName: z.string(),
      totalToolCalls: z.number().optional(),
      totalTokens: z.number().optional(),
      durationMs: z.number().optional(),
    }),
  ),
  "subagent.failed": persisted(z.object({ toolCallId: z.string(), agentName: z.string(), agentDisplayName: z.string(), error: z.string() })),
  "subagent.selected": persisted(z.object({ agentName: z.string(), agentDisplayName: z.string(), tools: z.array(z.string()).nullable() })),
  "subagent.deselected": persisted(z.object({})),
  "skill.invoked": persisted(
    z.object({
      name: z.string(),
      path: z.string(),
      content: z.string(),
      /** The tools its allowed-tools approved while it is active (absent when it approves none, or may not). */
      allowedTools: z.array(z.string()).optional(),
      pluginName: z.string().optional(),
      pluginVersion: z.string().optional(),
      description: z.string().optional(),
      /** Where it was found: builtin, user, project, plugin or custom. */
      source: z.string().optional(),
      /** Who loaded it: the model (its skill tool), the user (`/<name>`), or an agent's `skills:` list. */
      trigger: z.enum(["agent-invoked", "user-invoked", "context-load"]).optional(),
    }),
  ),
} as const;
