/**
 * A face's say over the system prompt (an SDK client's `systemMessage`): the whole prompt in its own words,
 * or edits to the prompt's named parts, some of them rewritten by the face itself each time the prompt is
 * built. The engine still builds its parts; the shape only decides what of them the model sees.
 */
import { joinSystemPromptParts, systemPromptParts, type SystemPromptInput, type SystemPromptPartName } from "./system-prompt.js";

export interface SystemPromptPartEdit {
  action: "replace" | "remove" | "append" | "prepend" | "preserve";
  content?: string;
}

export type SystemPromptPartTexts = Partial<Record<SystemPromptPartName, string>>;

export interface SystemPromptShape {
  /** The whole prompt instead of the engine's. */
  replace?: string;
  edits?: Partial<Record<SystemPromptPartName, SystemPromptPartEdit>>;
  /** Text after every part (the face's own additions, kept apart from the instruction files). */
  after?: string;
  /** Parts the face rewrites (after the edits): given their current texts, it answers with new ones. */
  rewrite?: { parts: readonly SystemPromptPartName[]; apply(texts: SystemPromptPartTexts): Promise<SystemPromptPartTexts> };
}

function edited(text: string, edit: SystemPromptPartEdit | undefined): string {
  const content = edit?.content ?? "";
  switch (edit?.action) {
    case "replace":
      return content;
    case "remove":
      return "";
    case "append":
      return text.trim() === "" ? content : `${text}\n\n${content}`;
    case "prepend":
      return text.trim() === "" ? content : `${content}\n\n${text}`;
    default:
      return text;
  }
}

/**
 * The prompt the model sees: the engine's parts as the shape has them (the engine's prompt when there is no
 * shape). It is a promise only when the face rewrites parts, so a plain session's prompt is there at once.
 */
export function shapeSystemPrompt({ shape, ...input }: SystemPromptInput & { shape: SystemPromptShape | undefined }): string | Promise<string> {
  if (shape?.replace !== undefined) return shape.replace;
  const parts = systemPromptParts(input);
  if (!shape) return joinSystemPromptParts(parts);
  const shaped = [
    ...parts.map((part) => ({ ...part, text: edited(part.text, shape.edits?.[part.name]) })),
    { name: "after" as const, text: shape.after ?? "" },
  ];
  const rewrite = shape.rewrite;
  if (!rewrite || rewrite.parts.length === 0) return joinSystemPromptParts(shaped);
  const asked: SystemPromptPartTexts = {};
  for (const part of shaped) if (rewrite.parts.includes(part.name)) asked[part.name] = part.text;
  // A face that cannot answer (its client went away) leaves the parts as they were.
  return rewrite
    .apply(asked)
    .catch(() => asked)
    .then((answer) =>
      joinSystemPromptParts(shaped.map((part) => (typeof answer[part.name] === "string" ? { ...part, text: answer[part.name] as string } : part))),
    );
}
