/**
 * Images (and PDF documents) in a user message, read when the request is built: the log keeps only each one's
 * path, so a session stays small and a resumed one re-reads the file. One that is gone, too large, or no
 * longer what it was becomes a short text note instead; the request is never refused for it. A document is
 * an OpenAI `file` part here; the Anthropic and Responses adapters make it their own document input.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { ChatCompletionContentPart } from "openai/resources/chat/completions";
import { sniffImageBytes } from "../util/image-file.js";
import type { ChatImage } from "./types.js";

/** Larger images are described, not sent: most endpoints refuse more (OpenAI's limit is 20 MB a request). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Every request of a session re-sends its images: the encoded ones are kept (the last few, checked against
 * the file's size and mtime) so a turn does not read and base64 megabytes again.
 */
const encoded = new Map<string, { stamp: string; url: string }>();
const KEEP_ENCODED = 8;
const PDF = "application/pdf";

function imagePart(image: ChatImage): ChatCompletionContentPart {
  const note = (why: string): ChatCompletionContentPart => ({
    type: "text",
    text: `[${image.mediaType === PDF ? "document" : "image"} ${image.path}: ${why}]`,
  });
  let size: number;
  let stamp: string;
  try {
    const stat = statSync(image.path);
    size = stat.size;
    stamp = `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return note("the file is no longer there, so it was not sent");
  }
  const kept = encoded.get(image.path);
  if (kept?.stamp === stamp) return mediaPart(image, kept.url);
  if (size > MAX_IMAGE_BYTES) return note(`${(size / (1024 * 1024)).toFixed(1)} MB is over the 5 MB limit, so it was not sent`);
  let data: Buffer;
  try {
    data = readFileSync(image.path);
  } catch {
    return note("the file could not be read, so it was not sent");
  }
  const mediaType = image.mediaType === PDF ? (data.subarray(0, 5).toString("latin1") === "%PDF-" ? PDF : undefined) : sniffImageBytes(data.subarray(0, 16));
  if (!mediaType)
    return note(
      image.mediaType === PDF ? "the file is no longer a PDF, so it was not sent" : "the file is no longer a PNG, JPEG, GIF or WebP image, so it was not sent",
    );
  const url = `data:${mediaType};base64,${data.toString("base64")}`;
  encoded.delete(image.path);
  encoded.set(image.path, { stamp, url });
  if (encoded.size > KEEP_ENCODED) encoded.delete(encoded.keys().next().value as string);
  return mediaPart(image, url);
}

function mediaPart(image: ChatImage, url: string): ChatCompletionContentPart {
  if (image.mediaType !== PDF) return { type: "image_url", image_url: { url } };
  return { type: "file", file: { filename: image.title ?? path.basename(image.path), file_data: url } };
}

/** The content parts of a user message with images: its text first, then each image (or document). */
export function userContentParts(text: string, images: readonly ChatImage[]): ChatCompletionContentPart[] {
  return [{ type: "text", text }, ...images.map(imagePart)];
}
