/** A tool that runs a child agent through the session, as the task tool does, for engine tests of subagents. */
import { z } from "zod";
import type { AgentSession } from "../../src/core/agent-session.js";
import type { ChildAgentSpec } from "../../src/core/child-agent.js";
import { defineTool, type AnyTool } from "../../src/tools/define-tool.js";

/** `delegate { prompt }` runs the child "helper-1" (with `view` only) and answers with what it said; `spec` adds to the child's spec. */
export function delegateTool(session: () => AgentSession, spec: Partial<ChildAgentSpec> = {}): AnyTool {
  return defineTool({
    name: "delegate",
    description: "Runs a helper agent",
    parameters: z.object({ prompt: z.string() }),
    kind: "control",
    readOnly: false,
    permission: () => null,
    execute: async ({ prompt }, ctx) => {
      const result = await session().runChild(
        { agentId: "helper-1", parentToolCallId: ctx.toolCallId, systemPrompt: "You are a helper.", prompt, toolNames: ["view"], ...spec },
        ctx.signal,
      );
      return { content: `helper said: ${result.finalMessage}`, success: result.outcome === "completed" };
    },
  }) as unknown as AnyTool;
}
