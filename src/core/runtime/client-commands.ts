/**
 * Slash commands an application runs itself (Copilot's queued commands: an SDK app that registered interest
 * in command.queued). Such a command waits in the prompt queue like a prompt; when its turn comes it is handed
 * to the application (command.queued) and the queue waits until the application answers
 * (session.commands.respondToQueuedCommand) or the wait is interrupted. `stopProcessingQueue` holds what is
 * queued behind it until the next prompt arrives, as after an interrupt.
 */
import { randomUUID } from "../../util/random-id.js";
import type { Emit } from "../event-sink.js";

export interface ClientCommandAnswer {
  handled: boolean;
  stopProcessingQueue: boolean;
}

export class ClientCommands {
  private readonly pending = new Map<string, (answer: ClientCommandAnswer) => void>();

  constructor(private readonly emit: Emit) {}

  /** Hands the command to the application; settles with its answer (an interrupt: not handled). */
  handOff(command: string, signal: AbortSignal): Promise<ClientCommandAnswer> {
    const requestId = randomUUID();
    return new Promise((resolve) => {
      const settle = (answer: ClientCommandAnswer) => {
        this.pending.delete(requestId);
        signal.removeEventListener("abort", interrupted);
        resolve(answer);
      };
      const interrupted = () => settle({ handled: false, stopProcessingQueue: false });
      if (signal.aborted) return interrupted();
      signal.addEventListener("abort", interrupted, { once: true });
      this.pending.set(requestId, settle);
      this.emit("command.queued", { requestId, command });
    });
  }

  /** The application's answer; false when no command waits under that id (answered, interrupted, unknown). */
  answer(requestId: string, answer: ClientCommandAnswer): boolean {
    const settle = this.pending.get(requestId);
    if (!settle) return false;
    settle(answer);
    return true;
  }
}
