/**
 * A resumed session's repair and restore. What the log left unfinished when the last process stopped (tool
 * calls without a result, agents that never ended) is closed as interrupted, so the conversation is valid
 * and every face sees how they ended; what the session was (its mode and objective, its background agents,
 * its earlier usage, the agent it ran as) is read back from the log.
 */
import type { AgentMode, SessionEvent, SessionEventOf } from "../protocol/events/index.js";
import type { SessionCommand } from "../protocol/commands.js";
import { restoreSelectedAgent } from "./agents/agent-catalog.js";
import { restoredObjective } from "./orchestrate/objective.js";
import type { SessionServices, SessionStart } from "./session-services.js";
import { priorUsage } from "./usage/prior-usage.js";

/** What a resume reports: how much of the log was read, and what was repaired. */
export interface ResumeReport {
  eventCount: number;
  skippedLines: number;
  unknownEvents: number;
  repairedToolCalls: number;
}

/** How a resumed session starts: the mode it had, and in autopilot the objective its log ends with. */
export function restoredStart(events: readonly SessionEvent[]): SessionStart {
  const mode = restoredMode(events);
  return { mode, ...(mode === "autopilot" ? { objective: restoredObjective(events) } : {}) };
}

function restoredMode(events: readonly SessionEvent[]): AgentMode {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as SessionEvent;
    if (event.type === "session.mode_changed") return event.data.newMode;
    if (event.type === "session.start" && event.data.mode) return event.data.mode;
  }
  return "interactive";
}

/** The session as the repair needs it: its background agents restored from the log. */
interface Resumed {
  restoreAgents(events: readonly SessionEvent[]): void;
}

/**
 * Closes what the last process left open, and restores the background agents and the earlier usage:
 * `unanswered` are the main conversation's tool calls without a result (the conversation's fold found them).
 */
export function repairResume(
  session: Resumed,
  services: SessionServices,
  events: readonly SessionEvent[],
  unanswered: readonly { toolCallId: string; toolName: string }[],
): void {
  const { sink } = services;
  for (const call of unanswered) {
    sink.emit("tool.execution_complete", {
      toolCallId: call.toolCallId,
      success: false,
      error: {
        message: `The session stopped before this ${call.toolName} call finished, so its result is unknown. Check its effects before relying on them.`,
        code: "interrupted",
      },
    });
  }
  session.restoreAgents(events);
  services.metrics.earlier = priorUsage(events);
  for (const started of unfinishedAgents(events)) {
    const emit = started.agentId ? sink.scoped({ agentId: started.agentId }) : sink.emit;
    emit("subagent.failed", {
      toolCallId: started.data.toolCallId,
      agentName: started.data.agentName,
      agentDisplayName: started.data.agentDisplayName,
      error: "interrupted: the session ended while the agent was running",
    });
  }
}

/** The custom agent the session ran as, selected again (or a warning that it is gone). */
export function restoreSelection(
  session: { dispatch(command: Extract<SessionCommand, { type: "select_agent" }>): string | undefined },
  services: SessionServices,
  events: readonly SessionEvent[],
): void {
  restoreSelectedAgent(session, events, services.sink.emit);
}

/** Agents the log shows starting but never ending: the process died while they ran. */
function unfinishedAgents(events: readonly SessionEvent[]): SessionEventOf<"subagent.started">[] {
  const ended = new Set<string>();
  for (const event of events) if (event.type === "subagent.completed" || event.type === "subagent.failed") ended.add(event.data.toolCallId);
  // One per task call: a sync agent moved to the background was announced twice (sync, then background).
  const unfinished = new Map<string, SessionEventOf<"subagent.started">>();
  for (const event of events) if (event.type === "subagent.started" && !ended.has(event.data.toolCallId)) unfinished.set(event.data.toolCallId, event);
  return [...unfinished.values()];
}
