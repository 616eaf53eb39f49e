/** The server-wide tool methods: `tools.list`, the built-in tools with their parameters (a state read of the engine). */
import { builtinToolList } from "../core/builtin-tool-list.js";

export const toolMethods = () => ({
  "tools.list": () => ({ tools: builtinToolList() }),
});
