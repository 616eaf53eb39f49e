/**
 * An SDK client's attachments on session.send, as the engine's: files and directories by path (with a file's
 * line range), an editor's selection with its text and range, a GitHub reference with its fields, an image
 * blob saved to the session's folder. Anything else (an unknown type, a file without a path) is left out.
 */
import { attachmentSchema, type Attachment } from "../protocol/events/shared-schemas.js";
import { savedBlob } from "./blob-attachments.js";
import type { SendRequest } from "./wire.js";

const KEPT = new Set(["file", "directory", "selection", "github_reference"]);

function kept(item: Record<string, unknown>): Attachment | undefined {
  if (!KEPT.has(String(item.type))) return undefined;
  const parsed = attachmentSchema.safeParse(item);
  if (!parsed.success) return undefined;
  const attachment = parsed.data;
  if ((attachment.type === "file" || attachment.type === "directory") && !attachment.path) return undefined;
  if (attachment.type === "selection" && attachment.text === undefined) return undefined;
  return attachment;
}

export function sendAttachments(list: SendRequest["attachments"], sessionDir: string): Attachment[] | undefined {
  const attachments = (list ?? []).flatMap((item): Attachment[] => {
    const attachment = item.type === "blob" ? savedBlob(sessionDir, item) : kept(item);
    return attachment ? [attachment] : [];
  });
  return attachments.length > 0 ? attachments : undefined;
}
