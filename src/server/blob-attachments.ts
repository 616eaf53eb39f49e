/**
 * An SDK client's `blob` attachment (base64 data with a media type): an image or a PDF is written to the
 * session's folder and attached as a file, so the log keeps a path and the model is shown the picture or
 * given the document (natively where the wire takes documents). Other blobs are dropped.
 */
import { randomUUID } from "../util/random-id.js";
import type { Attachment } from "../protocol/events/index.js";
import { saveWorkspaceFile } from "../session/workspace-files.js";

const IMAGE_EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };
const PDF = "application/pdf";

export function savedBlob(sessionDir: string, blob: { data?: unknown; mimeType?: unknown; displayName?: string }): Attachment | undefined {
  if (typeof blob.data !== "string") return undefined;
  const bytes = () => Buffer.from(blob.data as string, "base64");
  if (blob.mimeType === PDF) {
    // The type goes with it: the model is given a document, not a tagged binary file.
    const file = saveWorkspaceFile(sessionDir, `blob-${randomUUID()}.pdf`, bytes());
    return { type: "file", path: file, displayName: blob.displayName ?? "document.pdf", mediaType: PDF };
  }
  const extension = typeof blob.mimeType === "string" ? IMAGE_EXTENSIONS[blob.mimeType] : undefined;
  if (!extension) return undefined;
  const file = saveWorkspaceFile(sessionDir, `blob-${randomUUID()}.${extension}`, bytes());
  return { type: "file", path: file, displayName: blob.displayName ?? "image" };
}
