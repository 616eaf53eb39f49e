/** The `stop_bash` tool: kills a shell's whole process group and returns what it printed since the last read. */
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { lazyParameters } from "../lazy-parameters.js";
import { withStatusLine } from "./output-buffer.js";
import { describeStatus, type ShellManager } from "./shell-manager.js";

const DESCRIPTION = `Stops a shell started by bash: terminates the command and every process it started (SIGTERM, then SIGKILL if needed), and returns its output not read yet. Use it for servers, watchers or commands that hang.`;

export const stopBashParameters = lazyParameters(() =>
  z.object({
    shellId: z.string().describe("The shellId of the shell to stop."),
  }),
);

export function createStopBashTool(manager: ShellManager) {
  return defineTool({
    name: "stop_bash",
    description: DESCRIPTION,
    parameters: stopBashParameters,
    kind: "control",
    readOnly: false,
    title: (args) => `Stop shell ${args.shellId}`,
    // It only stops a process the agent itself started.
    permission: () => null,
    async execute(args) {
      const shell = manager.require(args.shellId);
      const wasRunning = shell.running;
      await manager.stop(shell);
      const output = shell.takeUnread();
      const status = describeStatus(shell.status);
      manager.retire(shell, wasRunning ? "was stopped" : `already exited ${status}`);
      const header = wasRunning ? `Stopped shell ${shell.id} (pid ${shell.pid}).` : `Shell ${shell.id} had already exited.`;
      const body = output.text === "" ? header : `${header} Output not read yet:\n${output.text}`;
      const exitCode = shell.status.state === "exited" ? shell.status.exitCode : undefined;
      return {
        content: withStatusLine(body, status),
        success: true,
        telemetry: { shellId: shell.id, wasRunning, exitCode, truncated: output.omittedBytes > 0 },
      };
    },
  });
}
