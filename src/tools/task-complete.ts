import { z } from "zod";
import { defineTool } from "./define-tool.js";
import { lazyParameters } from "./lazy-parameters.js";

/** Offered in autopilot: the model's explicit "the task is done" signal. Its description is Copilot CLI's. */
export const taskCompleteTool = defineTool({
  name: "task_complete",
  description: [
    "Mark the current task as complete.",
    "Use this tool ONLY when you are confident the task is fully done.",
    "",
    "Guidelines:",
    "- Call this tool only after verifying your changes work correctly",
    "- If you're unsure whether the task is complete, continue working instead of calling this tool",
    "- Err on the side of caution - it's better to do extra verification than to mark incomplete work as done",
  ].join("\n"),
  parameters: lazyParameters(() =>
    z.object({
      summary: z.string().describe("What was done, in markdown; shown to the user as the final message."),
    }),
  ),
  kind: "control",
  readOnly: false,
  title: () => "Task complete",
  permission: () => null,
  async execute({ summary }) {
    return { content: `Task marked complete.`, detailedContent: `✓ Task completed: ${summary}`, finish: { summary } };
  },
});
