/**
 * An ACP prompt (content blocks) as the engine's input: text becomes the typed line (so slash commands and
 * `@path` work as in the TUI), links to files become attachments, embedded resources (the editor's selection,
 * an open buffer) go into the prompt as context, and images are saved to files and attached.
 */
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { Attachment } from "../protocol/events/index.js";

export interface PromptInput {
  text: string;
  attachments: Attachment[];
}

/** Saves an image the client sent and returns its path. */
export type SaveImage = (data: Buffer, mimeType: string) => string;

function filePathOf(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

export function promptInput(blocks: readonly ContentBlock[], saveImage: SaveImage): PromptInput {
  const words: string[] = [];
  const context: string[] = [];
  const attachments: Attachment[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        words.push(block.text);
        break;
      case "resource_link": {
        const file = filePathOf(block.uri);
        if (file) attachments.push({ type: "file", path: file, displayName: block.name });
        else words.push(block.uri);
        break;
      }
      case "resource": {
        const { resource } = block;
        if ("text" in resource) context.push(`<context uri="${resource.uri}">\n${resource.text}\n</context>`);
        else {
          const file = filePathOf(resource.uri);
          if (file) attachments.push({ type: "file", path: file });
        }
        break;
      }
      case "image": {
        const file = block.uri ? filePathOf(block.uri) : undefined;
        attachments.push({ type: "file", path: file ?? saveImage(Buffer.from(block.data, "base64"), block.mimeType), displayName: "image" });
        break;
      }
      case "audio":
        break;
    }
  }
  const text = [words.join(""), ...context].filter((part) => part !== "").join("\n\n");
  return { text, attachments };
}
