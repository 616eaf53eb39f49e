/**
 * A client joins an open session (join_client): the session's log says so with a session.resume that marks
 * the join (alreadyInUse, sessionWasActive, continuePendingWork), unless silent (the client that opened it),
 * and the client's own tools join the session's until it leaves (leave_client). Which clients hold the session
 * is the face's business; the engine only keeps what each one brought.
 */
import type { CommandResults, SessionCommand } from "../protocol/commands.js";
import type { SessionServices } from "./session-services.js";

type JoinCommand = Extract<SessionCommand, { type: "join_client" }>;

export function joinClient(services: Pick<SessionServices, "id" | "sink" | "state" | "joinedTools">, command: JoinCommand): CommandResults["join_client"] {
  const { state } = services.state;
  const clash = services.joinedTools?.clash(command.client, command.tools ?? []);
  if (clash) return clash;
  if (!command.silent) {
    services.sink.emit("session.resume", {
      resumeTime: new Date().toISOString(),
      eventCount: services.sink.persistedCount,
      selectedModel: state.model,
      ...(state.reasoningEffort ? { reasoningEffort: state.reasoningEffort } : {}),
      ...(state.context ? { context: state.context } : {}),
      sessionWasActive: command.sessionWasActive,
      alreadyInUse: command.alreadyInUse,
      continuePendingWork: command.continuePendingWork,
    });
  }
  services.joinedTools?.join(command.client, command.tools ?? [], { sessionId: services.id, cwd: state.cwd });
  return undefined;
}
