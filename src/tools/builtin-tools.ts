/** The built-in tool set of a session, with Copilot CLI's names. */
import { createShellTools, type ShellManager } from "./bash/index.js";
import type { AnyTool } from "./define-tool.js";
import { fileTools } from "./file-tools.js";
import { taskCompleteTool } from "./task-complete.js";
import { webFetchTool } from "./web-fetch.js";

export function createBuiltinTools(services: { shells: ShellManager }): AnyTool[] {
  return [...createShellTools(services.shells), ...fileTools, webFetchTool, taskCompleteTool];
}
