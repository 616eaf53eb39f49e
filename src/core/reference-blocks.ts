/**
 * What the model reads of the attachments that are not files on disk, in Copilot CLI's words (models are tuned
 * on them, and the Copilot SDK's recordings expect them): an editor's selection as an `<ide_selection>` block
 * before the prompt, GitHub issues and pull requests as a `<github_references>` list after it.
 */
import path from "node:path";
import type { Attachment } from "../protocol/events/index.js";

/** Copilot's blocks are set apart by two blank lines. */
export const BLOCK_SEPARATOR = "\n\n\n\n";

function selectionBlock(attachment: Attachment, cwd: string): string | undefined {
  if (attachment.text === undefined) return undefined;
  const file = attachment.displayName ?? (attachment.filePath ? path.relative(cwd, attachment.filePath) : "selection");
  // Editors count lines from 0; people (and the model) from 1.
  const range = attachment.selection;
  const lines =
    range === undefined
      ? ""
      : range.start.line === range.end.line
        ? ` (line ${range.start.line + 1})`
        : ` (lines ${range.start.line + 1}-${range.end.line + 1})`;
  return [
    "<ide_selection>",
    "The user has the following text selected in their IDE. This may or may not be related to their request.",
    `File: ${file}${lines}`,
    "```",
    attachment.text,
    "```",
    "</ide_selection>",
  ].join("\n");
}

function githubReference(attachment: Attachment): string | undefined {
  if (attachment.number === undefined && attachment.url === undefined) return undefined;
  const kind = attachment.referenceType ? ` [${attachment.referenceType}]` : "";
  const state = attachment.state ? ` [${attachment.state}]` : "";
  const url = attachment.url ? ` (${attachment.url})` : "";
  return `#${attachment.number ?? "?"} - ${attachment.title ?? ""}${kind}${state}${url}`;
}

/** The selections' blocks (they go before the prompt) and the references' list (after it). */
export function referenceBlocks(attachments: readonly Attachment[], cwd: string): { before: string[]; after: string[] } {
  const before = attachments
    .flatMap((attachment) => (attachment.type === "selection" ? [selectionBlock(attachment, cwd)] : []))
    .filter((block) => block !== undefined);
  const references = attachments
    .flatMap((attachment) => (attachment.type === "github_reference" ? [githubReference(attachment)] : []))
    .filter((line) => line !== undefined);
  return { before, after: references.length > 0 ? [`<github_references>\n${references.join("\n")}\n</github_references>`] : [] };
}
