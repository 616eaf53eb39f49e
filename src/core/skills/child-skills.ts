/**
 * A subagent's skills (issue 19): the skill tool over the skills its agent names (all when it names none),
 * offered as its other tools are (its agent's list and --available-tools / --excluded-tools decide), the
 * `<available_skills>` guidance in its system prompt with the tool, and the skills its agent names loaded
 * into its conversation when it starts (they need no tool).
 */
import type { AnyTool } from "../../tools/define-tool.js";
import { toolInList } from "../agents/agent-catalog.js";
import type { ChildAgentSpec } from "../child-agent.js";
import type { Emit } from "../event-sink.js";
import type { SessionServices } from "../session-services.js";

export interface ChildSkills {
  /** The spec with the skill list added to its system prompt (when it has the tool). */
  spec: ChildAgentSpec;
  /** Its skill tool, speaking as it; none when it may not load skills. */
  tools(emit: Emit): AnyTool[];
  /** Loads the skills its agent names into its conversation; call once the agent exists. */
  preload(): void;
}

export function childSkills(services: Pick<SessionServices, "skills" | "sink">, offers: (tool: string) => boolean, spec: ChildAgentSpec): ChildSkills {
  const { skills, sink } = services;
  const withTool = toolInList(spec.toolNames, "skill") && offers("skill");
  const block = withTool ? skills.promptBlock(spec.skills) : "";
  return {
    spec: block ? { ...spec, systemPrompt: `${spec.systemPrompt}\n\n${block}` } : spec,
    tools: (emit) => {
      const tool = withTool ? skills.tool(emit, spec.skills) : undefined;
      return tool ? [tool] : [];
    },
    preload: () => {
      if (!spec.skills) return;
      const emit = sink.scoped({ agentId: spec.agentId, parentToolCallId: spec.parentToolCallId });
      skills.preload({ name: spec.agentName ?? spec.agentId, skills: spec.skills }, emit);
    },
  };
}
