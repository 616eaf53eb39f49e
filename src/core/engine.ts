/**
 * The engine, as the faces load it on demand (core/index.ts's loadEngine): the session manager, opening a
 * session, and the one piece a server face builds for its client (a client's own tools).
 */
export { SessionManager } from "./session-manager.js";
export { composeSessionOptions } from "./compose-session.js";
export { agentVersion, openSession } from "./open-session.js";
export { createClientTool } from "./client-tools.js";
