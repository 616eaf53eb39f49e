/**
 * Copilot's hook file format, unchanged: `{"version":1,"hooks":{"<event>":[{"type":"command","bash":"…",
 * "cwd":"…","env":{…},"timeoutSec":30,"matcher":"…"}]}}`, and what each event's hook may print back.
 */
import { z } from "zod";

export const HOOK_EVENTS = [
  "sessionStart",
  "sessionEnd",
  "userPromptSubmitted",
  "userPromptTransformed",
  "preToolUse",
  "preMcpToolCall",
  "postToolUse",
  "postToolUseFailure",
  "permissionRequest",
  "agentStop",
  "subagentStart",
  "subagentStop",
  "preCompact",
  "errorOccurred",
  "notification",
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export const isHookEvent = (name: string): name is HookEventName => (HOOK_EVENTS as readonly string[]).includes(name);

/** Checked to compile, so a bad pattern is reported with its file instead of failing at the first call. */
const matcherSchema = z.string().refine((text) => {
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
}, "not a valid regular expression");

/**
 * Unknown keys (a comment, an HTTP executor's fields) are tolerated, as Copilot does. Entries of another type
 * (Copilot's `prompt` hooks, HTTP hooks) are accepted and skipped, so a team's file still loads.
 */
export const commandHookSchema = z.looseObject({
  type: z.string().min(1),
  /** Optional: a hook written only for PowerShell has nothing to run here and is skipped. */
  bash: z.string().min(1).optional(),
  powershell: z.string().optional(),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  timeoutSec: z.number().positive().optional(),
  matcher: matcherSchema.optional(),
});
export type CommandHookEntry = z.infer<typeof commandHookSchema>;

/** Events this engine does not fire yet (Copilot has a few more) are accepted and ignored. */
export const hookMapSchema = z.record(z.string(), z.array(commandHookSchema));

export const hookFileSchema = z.looseObject({ version: z.literal(1), hooks: hookMapSchema });

const additionalContext = z.looseObject({ additionalContext: z.string().optional() });
const stopDecision = z.looseObject({ decision: z.enum(["block", "allow", "approve"]).optional(), reason: z.string().optional() });
const permissionDecision = z.looseObject({
  permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
  permissionDecisionReason: z.string().optional(),
});

/** What each event's hook may answer on stdout; other events' output is kept for the log only. */
export const hookOutputSchemas: Partial<Record<HookEventName, z.ZodType<Record<string, unknown>>>> = {
  sessionStart: additionalContext,
  userPromptSubmitted: additionalContext.extend({
    decision: z.enum(["block", "allow", "approve"]).optional(),
    reason: z.string().optional(),
    /** The prompt the model gets instead of the one typed. */
    modifiedPrompt: z.string().optional(),
  }),
  /** The whole user message the model gets (date header and all) instead of the one built. */
  userPromptTransformed: z.looseObject({ modifiedTransformedPrompt: z.string().optional() }),
  subagentStart: additionalContext,
  preToolUse: permissionDecision.extend({ modifiedArgs: z.record(z.string(), z.unknown()).optional() }),
  /** The result the model gets instead (Copilot's ToolResultObject: its text, and whether it failed). */
  postToolUse: additionalContext.extend({
    modifiedResult: z.looseObject({ textResultForLlm: z.string(), resultType: z.string().optional() }).optional(),
  }),
  /** The MCP request's `_meta`: an object replaces it, null removes it, absent keeps it. */
  preMcpToolCall: z.looseObject({ metaToUse: z.record(z.string(), z.unknown()).nullable().optional() }),
  permissionRequest: permissionDecision,
  agentStop: stopDecision,
  subagentStop: stopDecision,
};
