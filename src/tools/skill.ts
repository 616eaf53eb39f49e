/**
 * `skill`: the model loads a skill by name (Copilot CLI's tool and result text). The result only confirms;
 * the skill's instructions reach the conversation as a `<skill-context>` user message, which the session
 * adds for the skill.invoked event its host emits. Each agent gets its own instance: its host knows which
 * skills that agent may load and emits as that agent.
 */
import { z } from "zod";
import { defineTool, ToolError, type AnyTool } from "./define-tool.js";

export interface SkillToolHost {
  /** Loads a skill for this agent; why not, when it cannot (no such skill, hidden, disabled, unreadable). */
  load(name: string): string | undefined;
}

export function createSkillTool(host: SkillToolHost): AnyTool {
  return defineTool({
    name: "skill",
    description: [
      "Load a skill: specialized instructions (and the scripts and references in its folder) for a kind of task.",
      "The skills you can load are listed in <available_skills>. When the user's request matches a skill's description, load it before doing the work, then follow its instructions.",
      "Do not load a skill that is already loaded in this conversation.",
    ].join("\n"),
    parameters: z.object({ skill: z.string().describe("The skill's name, exactly as <available_skills> lists it.") }),
    kind: "read",
    readOnly: true,
    title: ({ skill }) => skill,
    permission: () => null,
    async execute({ skill }) {
      const problem = host.load(skill.trim());
      if (problem) throw new ToolError(problem, "skill_not_loaded");
      return { content: `Skill "${skill.trim()}" loaded successfully. Follow the instructions in the skill context.` };
    },
  }) as unknown as AnyTool;
}
