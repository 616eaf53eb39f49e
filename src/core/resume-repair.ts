/**
 * A resumed session's repair and restore. What the log left unfinished when the last process stopped (tool
 * calls without a result, agents that never ended) is closed as interrupted, so the conversation is valid
 * and every face sees how they ended; what the session was (its mode and objective, its background agents,
 * its earlier usage, the agent it ran as) is the session's state, the fold of its log.
 */
import type { SessionCommand } from "../protocol/commands.js";
import { restoreSelectedAgent } from "./agents/agent-catalog.js";
import type { SessionServices, SessionStart } from "./session-services.js";
import type { SessionState } from "./state/session-state.js";

/** What a resume reports: how much of the log was read, and what was repaired. */
export interface ResumeReport {
  eventCount: number;
  skippedLines: number;
  unknownEvents: number;
  repairedToolCalls: number;
}

/** How a resumed session starts: the mode it had, and in autopilot the objective its log ends with. */
export function restoredStart(state: SessionState): SessionStart {
  return { mode: state.mode, ...(state.mode === "autopilot" && state.objective !== undefined ? { objective: state.objective } : {}) };
}

/** The session as the repair needs it: its background agents restored from its state. */
interface Resumed {
  restoreAgents(): void;
}

/**
 * Closes what the last process left open, and restores the background agents: `unanswered` are the main
 * conversation's tool calls without a result (the conversation's fold found them).
 */
export function repairResume(session: Resumed, services: SessionServices, unanswered: readonly { toolCallId: string; toolName: string }[]): void {
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
  // Agents the log shows starting but never ending: the process died while they ran.
  for (const agent of services.state.state.agents) {
    if (agent.status !== "running" && agent.status !== "idle") continue;
    const emit = agent.parentAgentId ? sink.scoped({ agentId: agent.parentAgentId }) : sink.emit;
    emit("subagent.failed", {
      toolCallId: agent.toolCallId,
      agentName: agent.type,
      agentDisplayName: agent.name,
      error: "interrupted: the session ended while the agent was running",
    });
  }
  session.restoreAgents();
  // The todo list is in the session's database, not the log: read once (only when it has one).
  void services.database
    ?.todos()
    .then((todos) => (todos.length > 0 ? sink.emit("session.todos_changed", { todos }) : undefined))
    .catch(() => undefined);
}

/** The custom agent the session ran as, selected again (or a warning that it is gone). */
export function restoreSelection(
  session: { dispatch(command: Extract<SessionCommand, { type: "select_agent" }>): string | undefined },
  services: SessionServices,
): void {
  restoreSelectedAgent(session, services.state.state.selectedAgent?.name, services.sink.emit);
}
