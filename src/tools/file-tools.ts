// The file and search tools, in the order they are offered to the model.
import { createTool } from "./create.js";
import type { AnyTool } from "./define-tool.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { viewTool } from "./view.js";

export const fileTools: AnyTool[] = [viewTool, createTool, editTool, grepTool, globTool];
