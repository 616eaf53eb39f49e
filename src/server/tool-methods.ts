/** The server-wide tool methods: `tools.list`, the built-in tools with their parameters (a state read of the engine). */
import { loadEngine } from "../core/index.js";

export const toolMethods = () => ({
  "tools.list": async () => ({ tools: (await loadEngine()).builtinToolList() }),
});
