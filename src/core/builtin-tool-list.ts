/**
 * The built-in tools a session offers by default, as the SDK's `tools.list` lists them: a state read that needs
 * no session (an unused ShellManager starts nothing). Mode-only tools (autopilot's task_complete) are left out.
 */
import type { ToolSchema } from "../provider/types.js";
import { createBuiltinTools } from "../tools/builtin-tools.js";
import { ShellManager } from "../tools/bash/shell-manager.js";
import { availableModes, modePreset } from "./modes.js";
import { toolSchema } from "./tool-set.js";

export function builtinToolList(): ToolSchema[] {
  const modeOnly = new Set(availableModes().flatMap((mode) => modePreset(mode).extraTools));
  return createBuiltinTools({ shells: new ShellManager() })
    .filter((tool) => !modeOnly.has(tool.name))
    .map(toolSchema);
}
