/** The `bash` tool: runs one command in a fresh process, in the foreground (sync) or in the background (async). */
import { z } from "zod";
import { defineTool, INTERRUPTED_TOOL_TEXT, ToolError, type ToolContext, type ToolOutcome } from "../define-tool.js";
import { lazyParameters } from "../lazy-parameters.js";
import { runDelegatedCommand } from "./delegated-command.js";
import { withStatusLine } from "./output-buffer.js";
import { describeStatus, type Shell, type ShellManager } from "./shell-manager.js";

export const DEFAULT_INITIAL_WAIT_SECONDS = 30;
export const MAX_INITIAL_WAIT_SECONDS = 600;
/** How long an async call watches its command before returning, to catch immediate failures. */
export const ASYNC_PEEK_MS = 250;
const TITLE_MAX = 100;

const DESCRIPTION = `Runs a bash command and returns its combined stdout and stderr followed by its exit status.

- Every call starts a fresh bash process in the session's working directory. \`cd\`, exported variables, aliases and functions do not carry over to the next call; chain dependent steps in one command (\`cd sub && make\`) or use absolute paths.
- stdin is closed (/dev/null) and there is no terminal. Do not start interactive programs (editors, pagers, REPLs, prompts that wait for input); pass flags that make them non-interactive (\`--yes\`, \`-y\`, \`--no-pager\`). Pagers are already set to \`cat\` and git never prompts for credentials.
- mode "sync" (default) waits up to initial_wait seconds (default 30, at most 600). A command still running after that keeps running in the background under its shellId: use read_bash to wait for and read more of its output, and stop_bash to stop it.
- mode "async" starts the command and returns at once with its shellId; use it for servers, watchers and long builds, then read_bash / stop_bash. With detach: true the process is started in its own session and keeps running after the agent exits.
- A non-zero exit code is reported, not treated as a failure of the tool.
- Long output is shortened to its beginning and end; the full output is saved to a file whose path is given in the result, which you can search or view.
- Prefer the dedicated tools for reading, searching and editing files when they exist.`;

export const bashParameters = lazyParameters(() =>
  z.object({
    command: z.string().describe("The bash command to run. It can be a pipeline or a multi-line script."),
    description: z.string().describe("A short (at most 100 characters) description of what the command does, shown to the user as its title."),
    shellId: z.string().optional().describe("A name for this shell, used with read_bash, stop_bash and list_bash. Generated when omitted."),
    mode: z.enum(["sync", "async"]).optional().describe('"sync" (default) waits for the command up to initial_wait seconds; "async" returns right away.'),
    detach: z.boolean().optional().describe("Async only: start the process in its own session so it survives the agent (e.g. a server)."),
    initial_wait: z.number().optional().describe("Sync only: seconds to wait for the command before returning with it still running (default 30, max 600)."),
  }),
);

export type BashArgs = z.infer<typeof bashParameters>;

function clampSeconds(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return DEFAULT_INITIAL_WAIT_SECONDS;
  return Math.min(MAX_INITIAL_WAIT_SECONDS, Math.max(1, value));
}

function telemetryOf(shell: Shell, extra: Record<string, unknown>): Record<string, unknown> {
  const status = shell.status;
  return {
    shellId: shell.id,
    mode: shell.options.mode,
    pid: shell.pid,
    totalOutputBytes: shell.buffer.totalBytes,
    fullOutputPath: shell.buffer.savedPath,
    ...(status.state === "exited" ? { exitCode: status.exitCode, signal: status.signal ?? undefined } : {}),
    ...extra,
  };
}

export function createBashTool(manager: ShellManager) {
  /** Kills the command because the call was interrupted, and reports what it printed, then Copilot's words for it. */
  async function interrupted(shell: Shell): Promise<ToolOutcome> {
    await manager.stop(shell);
    const output = shell.takeUnread();
    manager.retire(shell, "was interrupted");
    return {
      content: withStatusLine(output.text, INTERRUPTED_TOOL_TEXT),
      success: false,
      errorCode: "interrupted",
      telemetry: telemetryOf(shell, { interrupted: true, truncated: output.omittedBytes > 0 }),
    };
  }

  /** The command has exited: its output and exit status. */
  function completed(shell: Shell): ToolOutcome {
    const output = shell.takeUnread();
    const status = describeStatus(shell.status);
    manager.retire(shell, `already exited ${status}`);
    return {
      content: withStatusLine(output.text, status),
      success: true,
      telemetry: telemetryOf(shell, { truncated: output.omittedBytes > 0 }),
    };
  }

  async function runSync(shell: Shell, seconds: number, ctx: ToolContext): Promise<ToolOutcome> {
    const unsubscribe = shell.onOutput((chunk) => ctx.onPartialOutput(chunk));
    const waited = await manager.waitForExit(shell, seconds * 1000, ctx.signal);
    unsubscribe();
    if (waited === "aborted") return interrupted(shell);
    if (waited === "exited" || !shell.running) return completed(shell);
    shell.backgrounded = true;
    manager.backgroundChanged();
    const output = shell.takeUnread();
    const note = `<command still running after ${seconds}s; shellId: ${shell.id}. ` + "Use read_bash to read more output, stop_bash to stop it>";
    return {
      content: withStatusLine(output.text, note),
      success: true,
      telemetry: telemetryOf(shell, { backgrounded: true, truncated: output.omittedBytes > 0 }),
    };
  }

  async function runAsync(shell: Shell, ctx: ToolContext): Promise<ToolOutcome> {
    shell.backgrounded = true;
    const waited = await manager.waitForExit(shell, ASYNC_PEEK_MS, ctx.signal);
    if (waited === "aborted") return interrupted(shell);
    if (waited === "exited" || !shell.running) return completed(shell);
    manager.backgroundChanged();
    const output = shell.takeUnread();
    const how = shell.detached ? "detached, in its own session" : "async";
    const header =
      `Started shell ${shell.id} (pid ${shell.pid}, ${how}). ` + `Use read_bash with shellId "${shell.id}" to read its output and stop_bash to stop it.`;
    const content = output.text === "" ? header : `${header}\nOutput so far:\n${output.text}`;
    return { content, success: true, telemetry: telemetryOf(shell, { backgrounded: true }) };
  }

  return defineTool({
    name: "bash",
    description: DESCRIPTION,
    parameters: bashParameters,
    kind: "shell",
    readOnly: false,
    title: (args) => (args.description.length > TITLE_MAX ? `${args.description.slice(0, TITLE_MAX - 1)}…` : args.description),
    // The permission gate parses the command and fills in commands, paths and URLs.
    permission: (args, ctx) => ({
      kind: "shell",
      fullCommandText: args.command,
      intention: args.description,
      commands: [],
      possiblePaths: [],
      toolCallId: ctx.toolCallId,
    }),
    async execute(args, ctx) {
      const mode = args.mode ?? "sync";
      if (args.detach && mode !== "async") throw new ToolError('detach can only be used with mode "async".');
      if (args.command.trim() === "") throw new ToolError("The command is empty.");
      if (ctx.signal.aborted) return { content: INTERRUPTED_TOOL_TEXT, success: false, errorCode: "interrupted" };
      // Background shells stay local: only a foreground command can go to another runner.
      if (ctx.commands && mode === "sync") return runDelegatedCommand(ctx.commands, args.command, clampSeconds(args.initial_wait), ctx);
      const shell = await manager.start({
        command: args.command,
        description: args.description,
        cwd: ctx.cwd,
        sessionDir: ctx.sessionDir,
        toolCallId: ctx.toolCallId,
        shellId: args.shellId?.trim() || undefined,
        mode,
        detach: args.detach === true,
      });
      return mode === "async" ? runAsync(shell, ctx) : runSync(shell, clampSeconds(args.initial_wait), ctx);
    },
  });
}
