/**
 * The engine, as the faces load it on demand (core/index.ts's loadEngine): the session manager, composing and
 * opening a session, and what a server face reads for its client (the built-in tools' list).
 */
export { SessionManager } from "./session-manager.js";
export { composeSessionOptions } from "./compose-session.js";
export { agentVersion, openSession } from "./open-session.js";
export { builtinToolList } from "./builtin-tool-list.js";
// agent replay: the session is played again against stand-ins for its tools.
export { replayScript } from "./replay/replay-script.js";
export { replaySession } from "./replay/replay-session.js";
export { scratchTree } from "./replay/scratch-tree.js";
export { standInTool } from "./replay/tool-stand-in.js";
