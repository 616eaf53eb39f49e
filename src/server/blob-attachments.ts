/**
 * An SDK client's `blob` attachment (base64 data with a media type): an image is written to the session's
 * folder and attached as a file, so the log keeps a path and the model is shown the picture. Other blobs are
 * dropped, as before.
 */
import { randomUUID } from "node:crypto";
import type { Attachment } from "../protocol/events/index.js";
import { saveWorkspaceFile } from "../session/workspace-files.js";

const IMAGE_EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };

export function savedBlob(sessionDir: string, blob: { data?: unknown; mimeType?: unknown; displayName?: string }): Attachment | undefined {
  const extension = typeof blob.mimeType === "string" ? IMAGE_EXTENSIONS[blob.mimeType] : undefined;
  if (!extension || typeof blob.data !== "string") return undefined;
  const file = saveWorkspaceFile(sessionDir, `blob-${randomUUID()}.${extension}`, Buffer.from(blob.data, "base64"));
  return { type: "file", path: file, displayName: blob.displayName ?? "image" };
}
