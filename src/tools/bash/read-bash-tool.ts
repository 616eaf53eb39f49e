/** The `read_bash` tool: output a background shell produced since the last read, and whether it is still running. */
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { lazyParameters } from "../lazy-parameters.js";
import { withStatusLine } from "./output-buffer.js";
import { describeStatus, type ShellManager } from "./shell-manager.js";

const MAX_DELAY_SECONDS = 600;

const DESCRIPTION = `Reads the output of a shell started by bash in async mode, or of a sync command that was still running when its call returned.

- Waits up to \`delay\` seconds before reading, returning early if the command exits, then returns the output produced since the previous read followed by <still running> or the exit status.
- Call it again with a longer delay while a command is still running; use stop_bash to end it, list_bash to see all shells.`;

export const readBashParameters = lazyParameters(() =>
  z.object({
    shellId: z.string().describe("The shellId returned by bash."),
    delay: z.number().describe("Seconds to wait for more output before reading (returns early when the command exits; max 600)."),
  }),
);

export function createReadBashTool(manager: ShellManager) {
  return defineTool({
    name: "read_bash",
    description: DESCRIPTION,
    parameters: readBashParameters,
    kind: "read",
    readOnly: true,
    polls: true,
    title: (args) => `Read shell ${args.shellId}`,
    permission: () => null,
    async execute(args, ctx) {
      const shell = manager.require(args.shellId);
      const delay = Number.isFinite(args.delay) ? Math.min(MAX_DELAY_SECONDS, Math.max(0, args.delay)) : 0;
      if (delay > 0) await manager.waitForExit(shell, delay * 1000, ctx.signal);
      const output = shell.takeUnread();
      const status = describeStatus(shell.status);
      if (!shell.running) manager.retire(shell, `already exited ${status}`);
      const text = output.text === "" ? "(no new output)" : output.text;
      const exitCode = shell.status.state === "exited" ? shell.status.exitCode : undefined;
      return {
        content: withStatusLine(text, status),
        success: true,
        telemetry: {
          shellId: shell.id,
          running: shell.running,
          exitCode,
          bytes: output.bytes,
          truncated: output.omittedBytes > 0,
        },
      };
    },
  });
}
