/**
 * A message a client puts on a session's record (the Copilot SDK's session.log), as the event of its level.
 * The kind is Copilot's `notification`, which SDK applications match on.
 */
import type { Emit } from "./event-sink.js";

export function logMessage(emit: Emit, level: "info" | "warning" | "error", message: string): string {
  switch (level) {
    case "info":
      return emit("session.info", { infoType: "notification", message }).id;
    case "warning":
      return emit("session.warning", { warningType: "notification", message }).id;
    case "error":
      return emit("session.error", { errorType: "notification", message }).id;
  }
}
