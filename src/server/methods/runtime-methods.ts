/**
 * Methods of runtime modes this server does not run in, answered as Copilot's headless runtime answers them
 * (never "method not found", so a client can tell "not here" from "not known"): no TUI to put a session in
 * the foreground (--ui-server), no agent registry to spawn into, no extension connection.
 */
import type { ClientLink } from "../served-session.js";
import type { RUNTIME_METHODS } from "./server-method-names.js";

type Method = (typeof RUNTIME_METHODS)[number];
type Handler = (link: ClientLink, params: unknown) => unknown;

export function runtimeMethods(): Record<Method, Handler> {
  return {
    "session.getForeground": () => ({}),
    "session.setForeground": () => ({ success: false, error: "Not running in TUI+server mode" }),
    "agentRegistry.spawn": () => {
      throw new Error("agentRegistry.spawn: the agent registry is not enabled in this runtime (no delegate to spawn agents).");
    },
    "session.extensions.sendAttachmentsToMessage": () => {
      throw new Error("Only an extension connection may send attachments to a message; this connection is not an extension's.");
    },
  };
}
