/**
 * `!cmd` in the composer: the user runs a shell command themselves. It runs through the bash tool and the
 * tool runner (process group, output limits, full output on disk, the same events) without the permission
 * gate — the user typed it — and its output reaches the model as a `<user_shell_command_output>` user
 * message with the next prompt.
 */
import { randomUUID } from "../util/random-id.js";
import type { ToolOutcome } from "../tools/define-tool.js";
import { runUserRequestedCall, type ToolRunEnvironment } from "./tool-runner.js";

export async function runUserShellCommand(command: string, env: ToolRunEnvironment, signal: AbortSignal): Promise<ToolOutcome> {
  const { emit } = env;
  const bash = env.tools.get("bash");
  const toolCallId = `user_${randomUUID()}`;
  const args = { command, description: command.length > 60 ? `${command.slice(0, 59)}…` : command, initial_wait: 600 };
  emit("tool.user_requested", { toolCallId, toolName: "bash", arguments: args });
  let outcome: ToolOutcome;
  if (bash) outcome = await runUserRequestedCall({ toolCallId, name: "bash", arguments: args, type: "function" }, bash, env, signal, `! ${command}`);
  else {
    outcome = { content: "The bash tool is not available in this session.", success: false };
    emit("tool.execution_start", { toolCallId, toolName: "bash", arguments: args, toolTitle: `! ${command}` });
    emit("tool.execution_complete", { toolCallId, success: false, isUserRequested: true, error: { message: outcome.content } });
  }
  const success = outcome.success !== false;
  const exitCode = typeof outcome.telemetry?.exitCode === "number" ? outcome.telemetry.exitCode : success ? 0 : 1;
  emit("user.message", {
    content: `<user_shell_command_output>\n<command>${command}</command>\n<exit_code>${exitCode}</exit_code>\n<output>\n${outcome.content}\n</output>\n</user_shell_command_output>`,
    agentMode: "shell",
    source: "shell",
  });
  return outcome;
}
