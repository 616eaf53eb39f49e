/**
 * The client's own file system and terminal as the session's tool backends, when it offers them
 * (`clientCapabilities.fs`, `.terminal`): the editor reads its unsaved buffers, records the agent's writes
 * in its undo history, and shows the agent's commands in its terminal.
 */
import type { AgentContext, ClientCapabilities, SessionUpdate } from "@agentclientprotocol/sdk";
import type { CommandBackend, CommandRequest, CommandResult, FileBackend, ToolBackends } from "../core/session-services.js";

/** The most output kept of one command, as the local runner keeps (its end). */
const OUTPUT_BYTE_LIMIT = 100_000;

export interface ClientBackendOptions {
  client: AgentContext;
  capabilities: ClientCapabilities | undefined;
  sessionId: () => string;
  /** Shows the terminal in the tool call's content, so the editor can display it live. */
  update(update: SessionUpdate): void;
}

function clientFiles({ client, capabilities, sessionId }: ClientBackendOptions): FileBackend | undefined {
  const fs = capabilities?.fs;
  if (!fs?.readTextFile && !fs?.writeTextFile) return undefined;
  return {
    readTextFile: async (path) => {
      if (!fs.readTextFile) return (await import("node:fs/promises")).readFile(path, "utf8");
      return (await client.request("fs/read_text_file", { sessionId: sessionId(), path })).content;
    },
    writeTextFile: async (path, content) => {
      if (!fs.writeTextFile) return (await import("node:fs/promises")).writeFile(path, content, "utf8");
      await client.request("fs/write_text_file", { sessionId: sessionId(), path, content });
    },
  };
}

function clientTerminal({ client, capabilities, sessionId, update }: ClientBackendOptions): CommandBackend | undefined {
  if (!capabilities?.terminal) return undefined;
  return {
    async run(request: CommandRequest): Promise<CommandResult> {
      const terminal = await client.createTerminal({
        sessionId: sessionId(),
        command: "bash",
        args: ["-c", request.command],
        cwd: request.cwd,
        outputByteLimit: OUTPUT_BYTE_LIMIT,
      });
      update({ sessionUpdate: "tool_call_update", toolCallId: request.toolCallId, content: [{ type: "terminal", terminalId: terminal.id }] });
      let stopped: "timeout" | "interrupt" | undefined;
      let timer: NodeJS.Timeout | undefined;
      const stop = (why: "timeout" | "interrupt") => {
        stopped ??= why;
        void terminal.kill().catch(() => undefined);
      };
      const onAbort = () => stop("interrupt");
      try {
        if (request.signal.aborted) stop("interrupt");
        request.signal.addEventListener("abort", onAbort, { once: true });
        timer = setTimeout(() => stop("timeout"), request.timeoutMs);
        const exit = await terminal.waitForExit();
        const output = await terminal.currentOutput();
        return {
          output: output.output,
          truncated: output.truncated,
          exitCode: exit.exitCode ?? null,
          signal: exit.signal ?? null,
          timedOut: stopped === "timeout",
          interrupted: stopped === "interrupt",
        };
      } finally {
        clearTimeout(timer);
        request.signal.removeEventListener("abort", onAbort);
        await terminal.release().catch(() => undefined);
      }
    },
  };
}

export function clientBackends(options: ClientBackendOptions): ToolBackends | undefined {
  const files = clientFiles(options);
  const commands = clientTerminal(options);
  return files || commands ? { ...(files ? { files } : {}), ...(commands ? { commands } : {}) } : undefined;
}
