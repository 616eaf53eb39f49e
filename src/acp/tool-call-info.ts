/**
 * How a tool call looks to an ACP client: its kind (the editor's icon), a title, the files it touches (the
 * editor can follow along) and, for edits, a diff. Worked out from the tool's name and arguments, which is
 * all the events carry.
 */
import path from "node:path";
import type { ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";

const KINDS: Record<string, ToolKind> = {
  view: "read",
  grep: "search",
  glob: "search",
  edit: "edit",
  create: "edit",
  bash: "execute",
  read_bash: "execute",
  stop_bash: "execute",
  list_bash: "execute",
  web_fetch: "fetch",
  exit_plan_mode: "switch_mode",
  task: "think",
  read_agent: "think",
  write_agent: "think",
  list_agents: "think",
};

type Args = Record<string, unknown>;

function argsOf(value: unknown): Args {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Args) : {};
}

const stringArg = (args: Args, key: string): string | undefined => (typeof args[key] === "string" ? (args[key] as string) : undefined);

export function toolKind(toolName: string): ToolKind {
  return KINDS[toolName] ?? "other";
}

/** The file a call works on, absolute (relative paths resolve against the session's directory, as the tools do). */
function filePath(args: Args, cwd: string): string | undefined {
  const given = stringArg(args, "path");
  return given === undefined ? undefined : path.resolve(cwd, given);
}

/** A title before the tool itself gave one (tool.execution_start carries the tool's own). */
export function toolTitle(toolName: string, rawArgs: unknown, cwd: string): string {
  const args = argsOf(rawArgs);
  const file = filePath(args, cwd);
  switch (toolName) {
    case "bash":
      return stringArg(args, "description") ?? stringArg(args, "command") ?? "Run a command";
    case "view":
      return file ? `Read ${file}` : "Read a file";
    case "edit":
      return file ? `Edit ${file}` : "Edit a file";
    case "create":
      return file ? `Create ${file}` : "Create a file";
    case "grep":
      return `Search for ${stringArg(args, "pattern") ?? "a pattern"}`;
    case "glob":
      return `Find files matching ${stringArg(args, "pattern") ?? "a pattern"}`;
    case "task":
      return stringArg(args, "description") ?? "Delegate to an agent";
    default:
      return toolName;
  }
}

export function toolLocations(toolName: string, rawArgs: unknown, cwd: string): ToolCallLocation[] {
  const args = argsOf(rawArgs);
  const file = filePath(args, cwd);
  if (file) {
    const range = args.view_range;
    const line = toolName === "view" && Array.isArray(range) && typeof range[0] === "number" ? range[0] : undefined;
    return [{ path: file, ...(line !== undefined ? { line } : {}) }];
  }
  const paths = args.paths;
  const list = typeof paths === "string" ? [paths] : Array.isArray(paths) ? paths.filter((item): item is string => typeof item === "string") : [];
  return list.map((item) => ({ path: path.resolve(cwd, item) }));
}

/** The change an edit or create makes, as ACP's diff: the replaced text and its replacement. */
export function toolDiff(toolName: string, rawArgs: unknown, cwd: string): ToolCallContent[] {
  const args = argsOf(rawArgs);
  const file = filePath(args, cwd);
  if (!file) return [];
  if (toolName === "create") return [{ type: "diff", path: file, oldText: null, newText: stringArg(args, "file_text") ?? "" }];
  if (toolName === "edit") {
    const oldText = stringArg(args, "old_str") ?? "";
    return [{ type: "diff", path: file, oldText: oldText === "" ? null : oldText, newText: stringArg(args, "new_str") ?? "" }];
  }
  return [];
}

/** Text as tool-call content. */
export function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}
