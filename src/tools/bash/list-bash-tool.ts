/** The `list_bash` tool: the shells of this session with their state and unread output. */
import { z } from "zod";
import { defineTool } from "../define-tool.js";
import { lazyParameters } from "../lazy-parameters.js";
import type { ShellInfo, ShellManager } from "./shell-manager.js";

const COMMAND_MAX = 80;

const DESCRIPTION = `Lists the shells started by bash that are still running or have output or an exit status not read yet: shellId, mode, pid, status, unread output bytes and command.`;

export const listBashParameters = lazyParameters(() => z.object({}));

function shorten(command: string): string {
  const oneLine = command.replace(/\s+/g, " ").trim();
  return oneLine.length > COMMAND_MAX ? `${oneLine.slice(0, COMMAND_MAX - 1)}…` : oneLine;
}

function statusText(info: ShellInfo): string {
  if (info.status.state === "running") return "running";
  if (info.status.signal) return `killed by ${info.status.signal}`;
  return `exited ${info.status.exitCode ?? "?"}`;
}

export function formatShellLine(info: ShellInfo): string {
  const mode = info.detached ? `${info.mode}, detached` : info.mode;
  return `- ${info.shellId}: ${statusText(info)} (${mode}, pid ${info.pid}, ${info.unreadBytes} bytes unread) ${shorten(info.command)}`;
}

export function createListBashTool(manager: ShellManager) {
  return defineTool({
    name: "list_bash",
    description: DESCRIPTION,
    parameters: listBashParameters,
    kind: "read",
    readOnly: true,
    title: () => "List shells",
    permission: () => null,
    async execute() {
      const shells = manager.list();
      if (shells.length === 0) return { content: "No shells.", success: true, telemetry: { count: 0 } };
      const lines = shells.map(formatShellLine);
      return { content: `Shells:\n${lines.join("\n")}`, success: true, telemetry: { count: shells.length } };
    },
  });
}
