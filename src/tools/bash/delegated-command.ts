/**
 * A foreground `bash` call run by a command backend other than a local process (an editor's terminal over
 * ACP). Such a command cannot be left running under a shell id for read_bash: it runs to its end, and one
 * still running after initial_wait is stopped and reported as such.
 */
import type { CommandBackend } from "../backends.js";
import { INTERRUPTED_TOOL_TEXT, type ToolContext, type ToolOutcome } from "../define-tool.js";
import { withStatusLine } from "./output-buffer.js";

export async function runDelegatedCommand(backend: CommandBackend, command: string, seconds: number, ctx: ToolContext): Promise<ToolOutcome> {
  const result = await backend.run({ command, cwd: ctx.cwd, toolCallId: ctx.toolCallId, timeoutMs: seconds * 1000, signal: ctx.signal });
  const status = result.interrupted
    ? INTERRUPTED_TOOL_TEXT
    : result.timedOut
      ? `<command still running after ${seconds}s; it was stopped>`
      : result.signal
        ? `<killed by signal ${result.signal}>`
        : `<exited with exit code ${result.exitCode ?? "unknown"}>`;
  const output = result.truncated ? `[Only the end of the output was kept.]\n${result.output}` : result.output;
  return {
    content: withStatusLine(output, status),
    success: !result.interrupted,
    ...(result.interrupted ? { errorCode: "interrupted" } : {}),
    telemetry: { delegated: true, exitCode: result.exitCode, truncated: result.truncated, timedOut: result.timedOut },
  };
}
