/** The shell tools (bash, read_bash, stop_bash, list_bash) over one session's ShellManager. */
import type { AnyTool } from "../define-tool.js";
import { createBashTool } from "./bash-tool.js";
import { createListBashTool } from "./list-bash-tool.js";
import { createReadBashTool } from "./read-bash-tool.js";
import type { ShellManager } from "./shell-manager.js";
import { createStopBashTool } from "./stop-bash-tool.js";

export function createShellTools(manager: ShellManager): AnyTool[] {
  return [createBashTool(manager), createReadBashTool(manager), createStopBashTool(manager), createListBashTool(manager)];
}

export { createBashTool, bashParameters, type BashArgs } from "./bash-tool.js";
export { createReadBashTool, readBashParameters } from "./read-bash-tool.js";
export { createStopBashTool, stopBashParameters } from "./stop-bash-tool.js";
export { createListBashTool, listBashParameters, formatShellLine } from "./list-bash-tool.js";
export {
  ShellManager,
  Shell,
  describeStatus,
  type ShellManagerOptions,
  type ShellInfo,
  type ShellMode,
  type ShellStatus,
  type StartShellOptions,
  type WaitResult,
} from "./shell-manager.js";
export { OutputBuffer, OutputWindow, FullOutputFile, type OutputLimits, type RenderedOutput } from "./output-buffer.js";
export { killGroup, spawnInGroup, isGroupAlive, resolveShell, SHELL_ENV_OVERRIDES } from "./process-group.js";
