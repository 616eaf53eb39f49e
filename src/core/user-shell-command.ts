/**
 * `!cmd` in the composer: the user runs a shell command themselves. It runs through the bash tool (process
 * group, output limits, full output on disk) without the permission gate — the user typed it — and its
 * output reaches the model as a `<user_shell_command_output>` user message with the next prompt.
 */
import { randomUUID } from "node:crypto";
import type { ToolOutcome } from "../tools/define-tool.js";
import type { Emit } from "./event-sink.js";
import type { ToolSet } from "./tool-set.js";

export interface UserShellContext {
  emit: Emit;
  tools: ToolSet;
  cwd: string;
  sessionDir: string;
  signal: AbortSignal;
}

export async function runUserShellCommand(command: string, context: UserShellContext): Promise<ToolOutcome> {
  const { emit } = context;
  const bash = context.tools.get("bash");
  const toolCallId = `user_${randomUUID()}`;
  const args = { command, description: command.length > 60 ? `${command.slice(0, 59)}…` : command, initial_wait: 600 };
  emit("tool.user_requested", { toolCallId, toolName: "bash", arguments: args });
  emit("tool.execution_start", { toolCallId, toolName: "bash", arguments: args, toolTitle: `! ${command}` });
  let outcome: ToolOutcome;
  if (!bash) outcome = { content: "The bash tool is not available in this session.", success: false };
  else {
    try {
      outcome = await bash.execute(bash.parameters.parse(args), {
        cwd: context.cwd,
        toolCallId,
        signal: context.signal,
        sessionDir: context.sessionDir,
        onPartialOutput: (chunk) => emit("tool.execution_partial_result", { toolCallId, partialOutput: chunk }),
        onProgress: (message) => emit("tool.execution_progress", { toolCallId, progressMessage: message }),
      });
    } catch (error) {
      outcome = { content: (error as Error).message, success: false };
    }
  }
  const success = outcome.success !== false;
  emit("tool.execution_complete", {
    toolCallId,
    success,
    isUserRequested: true,
    ...(success ? { result: { content: outcome.content } } : { error: { message: outcome.content } }),
    ...(outcome.telemetry ? { toolTelemetry: outcome.telemetry } : {}),
  });
  const exitCode = typeof outcome.telemetry?.exitCode === "number" ? outcome.telemetry.exitCode : success ? 0 : 1;
  emit("user.message", {
    content: `<user_shell_command_output>\n<command>${command}</command>\n<exit_code>${exitCode}</exit_code>\n<output>\n${outcome.content}\n</output>\n</user_shell_command_output>`,
    agentMode: "shell",
    source: "shell",
  });
  return outcome;
}
