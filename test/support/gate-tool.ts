/** A tool that waits until the test lets it finish: a deterministic "the agent is working" window. */
import { z } from "zod";
import { defineTool, type AnyTool } from "../../src/tools/define-tool.js";
import { gate } from "./gate.js";

export function gateTool(): { tool: AnyTool; release(): void } {
  const { opened, open } = gate();
  const tool = defineTool({
    name: "gate",
    description: "Waits",
    parameters: z.object({}),
    kind: "read",
    readOnly: true,
    permission: () => null,
    execute: async () => {
      await opened;
      return { content: "gate opened" };
    },
  }) as unknown as AnyTool;
  return { tool, release: open };
}
