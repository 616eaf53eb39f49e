/**
 * The texts a model sees of skills, in Copilot CLI's words where it has them: the `<available_skills>` list
 * (name, description, where it comes from) and the `<skill-context>` user message that carries a loaded
 * skill's instructions with its folder, so relative references and scripts resolve.
 */
import path from "node:path";

export interface PromptSkill {
  name: string;
  description: string;
  /** Where it comes from: user, project, plugin, custom, builtin. */
  location: string;
}

const escapeXml = (text: string): string => (/[&<>]/.test(text) ? text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;") : text);

/** A description on one line (the test first: most are, and start-up builds 200 of them before it is optimised). */
const oneLine = (text: string): string => (/\s\s|[\n\t]/.test(text) ? text.replace(/\s+/g, " ") : text);

/** The guidance and list for the system prompt; empty when there is no skill to load. */
export function availableSkillsBlock(skills: readonly PromptSkill[]): string {
  if (skills.length === 0) return "";
  const entries = skills.map(
    (skill) =>
      `<skill>\n<name>${escapeXml(skill.name)}</name>\n<description>${escapeXml(oneLine(skill.description))}</description>\n<location>${escapeXml(skill.location)}</location>\n</skill>`,
  );
  return [
    "skill loads a skill: specialized instructions for a kind of task. When a request matches a skill's description, call skill with its name before starting, then follow the instructions it adds; scripts and files it mentions are in its folder. Do not load one that is already loaded in this conversation.",
    `<available_skills>\n${entries.join("\n")}\n</available_skills>`,
  ].join("\n");
}

/** The user message a loaded skill becomes (live and on resume, from its skill.invoked event), laid out as Copilot's is. */
export function skillContextMessage(skill: { name: string; path: string; content: string }): string {
  return `<skill-context name="${escapeXml(skill.name)}">\nBase directory for this skill: ${path.dirname(skill.path)}\n\n${skill.content}\n\n</skill-context>`;
}

/**
 * The selected agent's prompt with the skills its `skills:` loaded when it was selected: like Copilot, their
 * instructions are part of the system prompt (so they survive compaction), not messages of the conversation.
 */
export function agentPromptWithSkills(
  prompt: string,
  loaded: readonly { name: string; path: string; content: string; trigger?: string; agentId?: string }[],
  names: readonly string[] | undefined,
): string {
  const preloaded = loaded.filter((skill) => skill.trigger === "context-load" && skill.agentId === undefined && names?.includes(skill.name));
  const unique = preloaded.filter((skill, index) => preloaded.findIndex((other) => other.name === skill.name) === index);
  return [prompt, ...unique.map(skillContextMessage)].join("\n\n");
}

/** After a compaction dropped loaded skills' instructions: the model is told they are gone, and how to get them back. */
export function skillsDroppedNote(names: readonly string[]): string {
  return `The instructions of the skills loaded earlier (${names.join(", ")}) are no longer in this conversation; load them again with the skill tool if you still need them.`;
}
