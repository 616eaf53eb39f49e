import { z } from "zod";
import { persisted } from "./define-event.js";

/** hook.*: a configured hook command ran (Copilot's field names); failures are also told as session.warning. */
export const hookEvents = {
  "hook.start": persisted(
    z.object({
      hookInvocationId: z.string(),
      hookType: z.string(),
      input: z.unknown().optional(),
      parentToolCallId: z.string().optional(),
    }),
  ),
  "hook.end": persisted(
    z.object({
      hookInvocationId: z.string(),
      hookType: z.string(),
      output: z.unknown().optional(),
      success: z.boolean(),
      error: z.object({ message: z.string(), source: z.string().optional() }).optional(),
      parentToolCallId: z.string().optional(),
    }),
  ),
} as const;
