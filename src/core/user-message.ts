/**
 * The user.message event for a prompt: what the person wrote, and what the model receives (the date header,
 * mode notices, the tagged files block, an editor's selection and GitHub references, what hooks added).
 */
import { randomUUID } from "../util/random-id.js";
import path from "node:path";
import type { AgentMode, Attachment, EventData } from "../protocol/events/index.js";
import { sniffImageFile } from "../util/image-file.js";
import { taggedFilesBlock } from "./attachments.js";
import { BLOCK_SEPARATOR, referenceBlocks } from "./reference-blocks.js";
import type { PromptInput } from "./runtime/agent-runtime.js";
import { transformUserMessage } from "./system-prompt.js";

/**
 * A file attachment that is an image gets its media type and an absolute path: the model is shown it, and the
 * request (live or after a resume from elsewhere) reads it by that path.
 */
function withImageType(attachment: Attachment, cwd: string): Attachment {
  if (attachment.type !== "file" || attachment.path === undefined || attachment.mediaType) return attachment;
  const absolute = path.resolve(cwd, attachment.path);
  const mediaType = sniffImageFile(absolute);
  return mediaType ? { ...attachment, path: absolute, mediaType } : attachment;
}

export interface UserMessageExtra {
  delivery?: "idle" | "queued" | "steering";
  continuation?: boolean;
  /** What userPromptSubmitted's hooks added, sent with the prompt. */
  context?: string;
  /** What sessionStart's hooks added, sent before the prompt as a message of its own (Copilot's way). */
  startContext?: string;
  /** The prompt the model gets in place of the one typed (a hook's modifiedPrompt). */
  prompt?: string;
  /** The session's limits, when they are new to the model (session-limits.ts): a message of its own after the prompt. */
  limitsStatus?: string;
}

export function buildUserMessage(
  input: PromptInput,
  extra: UserMessageExtra,
  session: { cwd: string; mode: AgentMode; notices: readonly string[] },
): EventData<"user.message"> {
  const attachments = input.attachments?.map((attachment) => withImageType(attachment, session.cwd));
  const tagged = attachments ? taggedFilesBlock(attachments, session.cwd) : "";
  const references = referenceBlocks(attachments ?? [], session.cwd);
  const hookContext = extra.context ? `\n\n<hook_context>\n${extra.context}\n</hook_context>` : "";
  const prompt = extra.prompt ?? input.prompt;
  const parts = [...references.before, prompt, ...(tagged === "" ? [] : [tagged]), ...references.after];
  return {
    content: input.prompt,
    transformedContent: transformUserMessage(`${parts.join(BLOCK_SEPARATOR)}${hookContext}`, {
      now: new Date(),
      notices: [...session.notices],
    }),
    ...(extra.startContext ? { startContext: extra.startContext } : {}),
    ...(extra.limitsStatus ? { limitsStatus: extra.limitsStatus } : {}),
    ...(attachments && attachments.length > 0 ? { attachments } : {}),
    messageId: randomUUID(),
    agentMode: session.mode,
    ...(input.source ? { source: input.source } : {}),
    // A resumed session and /share show a command's prompt as the line typed, not as its template.
    ...(input.source && input.typed !== undefined ? { typedText: input.typed } : {}),
    ...(extra.delivery ? { delivery: extra.delivery } : {}),
    ...(extra.continuation ? { isAutopilotContinuation: true } : {}),
    interactionId: randomUUID(),
  };
}
