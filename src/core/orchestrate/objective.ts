/**
 * Autopilot's objective: what `/autopilot <objective>` asked for. It is an event (session.objective_changed),
 * so a resumed session and every face see it; the TUI shows it as the goal line while autopilot is on, and
 * autopilot's continuation message repeats it. Leaving autopilot clears it.
 */
import type { AgentMode } from "../../protocol/events/index.js";
import type { Emit } from "../event-sink.js";

export class SessionObjective {
  private value: string | undefined;

  constructor(
    private readonly emit: Emit,
    initial?: string,
  ) {
    this.value = initial;
  }

  get current(): string | undefined {
    return this.value;
  }

  set(objective: string | null): void {
    const next = objective?.trim() || undefined;
    if (next === this.value) return;
    this.value = next;
    this.emit("session.objective_changed", next ? { objective: next } : {});
  }

  /** The mode changed: an objective belongs to autopilot and ends with it. */
  modeChanged(mode: AgentMode): void {
    if (mode !== "autopilot") this.set(null);
  }
}
