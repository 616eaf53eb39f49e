/**
 * The SDK's `systemMessage` as the engine's session options. append: the client's text joins the prompt as
 * an instruction. replace: the client's text is the whole prompt. customize: the SDK's named sections edit
 * the engine's parts where one holds what the section names; a section with a client callback
 * (`action: "transform"`) is rewritten by the client through `systemMessage.transform` each time the prompt
 * is built. The SDK's tone, tool_efficiency, code_change_rules and safety have no part of their own here
 * (our guidelines hold them together): text given for them joins the prompt as an instruction, as the SDK
 * does with sections it does not know (after every part, with customize's own content), and removing them
 * removes nothing.
 */
import type { InstructionFile, SystemPromptPartEdit, SystemPromptPartName, SystemPromptPartTexts, SystemPromptShape } from "../core/index.js";
import type { SessionConfig } from "./wire.js";

const PART_OF_SECTION: Record<string, SystemPromptPartName> = {
  preamble: "preamble",
  identity: "identity",
  guidelines: "guidelines",
  tool_instructions: "tools",
  environment_context: "environment",
  runtime_instructions: "mode",
  custom_instructions: "instructions",
  last_instructions: "closing",
};

const EDITS = new Set(["replace", "remove", "append", "prepend", "preserve"]);

/** The client's answer to `systemMessage.transform`: `{sections: {<id>: {content}}}`. */
export type SectionTexts = Record<string, { content: string }>;
export type AskTransform = (sections: SectionTexts) => Promise<SectionTexts | undefined>;

export interface SystemMessageOptions {
  extraInstructions?: InstructionFile[];
  systemPromptShape?: SystemPromptShape;
}

function instructions(texts: readonly (string | undefined)[]): InstructionFile[] | undefined {
  const content = texts.map((text) => text?.trim()).filter((text): text is string => Boolean(text));
  return content.length > 0 ? [{ path: "client:systemMessage", content: content.join("\n\n") }] : undefined;
}

function rewrite(sections: Record<string, SystemPromptPartName>, ask: AskTransform): NonNullable<SystemPromptShape["rewrite"]> {
  const entries = Object.entries(sections);
  return {
    parts: entries.map(([, part]) => part),
    apply: async (texts) => {
      const asked: SectionTexts = {};
      for (const [section, part] of entries) asked[section] = { content: texts[part] ?? "" };
      const answer = await ask(asked);
      const result: SystemPromptPartTexts = {};
      for (const [section, part] of entries) {
        const content = answer?.[section]?.content;
        result[part] = typeof content === "string" ? content : texts[part];
      }
      return result;
    },
  };
}

export function systemMessageOptions(message: SessionConfig["systemMessage"], ask: AskTransform): SystemMessageOptions {
  if (!message) return {};
  if (message.mode === "replace") return { systemPromptShape: { replace: message.content ?? "" } };
  if (message.mode !== "customize") {
    const extra = instructions([message.content]);
    return extra ? { extraInstructions: extra } : {};
  }
  const edits: Partial<Record<SystemPromptPartName, SystemPromptPartEdit>> = {};
  const transformed: Record<string, SystemPromptPartName> = {};
  const homeless: (string | undefined)[] = [];
  for (const [section, override] of Object.entries(message.sections ?? {})) {
    const part = PART_OF_SECTION[section];
    if (override.action === "transform") {
      if (part) transformed[section] = part;
    } else if (part && EDITS.has(override.action)) {
      edits[part] = { action: override.action as SystemPromptPartEdit["action"], ...(override.content !== undefined ? { content: override.content } : {}) };
    } else if (override.action !== "remove") {
      homeless.push(override.content);
    }
  }
  // After every section, so that editing custom_instructions or last_instructions leaves the client's own text alone.
  const after = [...homeless, message.content].map((text) => text?.trim()).filter((text): text is string => Boolean(text));
  const shape: SystemPromptShape = {
    edits,
    ...(after.length > 0 ? { after: after.join("\n\n") } : {}),
    ...(Object.keys(transformed).length > 0 ? { rewrite: rewrite(transformed, ask) } : {}),
  };
  return { systemPromptShape: shape };
}
