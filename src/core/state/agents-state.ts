/**
 * The session's subagents as a fold of its events: subagent.started/completed/failed for their lives,
 * session.background_tasks_changed for a background agent's id and whether it works or waits (idle), and
 * each agent's own persisted events for its answers and its transcript (for /tasks). An agent is keyed by the
 * task call that started it until its first own event (or the background list) names it.
 */
import type { SessionEvent, SessionEventOf } from "../../protocol/events/index.js";
import { transcriptLineOf, type AgentTranscriptLine } from "../tasks/agent-transcripts.js";

export type AgentStatus = "running" | "idle" | "completed" | "failed" | "cancelled";

export interface AgentState {
  /** The task call (in its parent's conversation) that started it. */
  toolCallId: string;
  /** Its id (`explore-1`), once one of its own events or the background list has named it. */
  id?: string;
  /** The agent's name (`explore`, `mcp-task`). */
  type: string;
  /** Its display name. */
  name: string;
  description: string;
  status: AgentStatus;
  /** Runs in the background (or was moved there); a sync agent runs inside its task call. */
  background: boolean;
  /** The agent that started it, for an agent a subagent started; absent for the main agent's. */
  parentAgentId?: string;
  model?: string;
  /** Milliseconds since the epoch. */
  startedAt: number;
  /** When it last ended its task: its latest answer (it may wait idle for more), or its end. */
  endedAt?: number;
  /** Why it failed or was cancelled. */
  error?: string;
  /** Each answer it gave (a message without tool calls), oldest first. */
  answers: readonly string[];
  /** What it said and did, as short lines: the newest TRANSCRIPT_LINES. */
  transcript: readonly AgentTranscriptLine[];
}

const TRANSCRIPT_LINES = 500;

const isLive = (status: AgentStatus) => status === "running" || status === "idle";

function replaceAt(agents: readonly AgentState[], index: number, agent: AgentState): readonly AgentState[] {
  const next = agents.slice();
  next[index] = agent;
  return next;
}

function started(agents: readonly AgentState[], event: SessionEventOf<"subagent.started">): readonly AgentState[] {
  const { data } = event;
  const background = data.executionMode === "background";
  const index = agents.findIndex((agent) => agent.toolCallId === data.toolCallId);
  // A sync agent moved to the background is announced again: the same agent, now a background one.
  if (index >= 0) return background ? replaceAt(agents, index, { ...(agents[index] as AgentState), background: true }) : agents;
  // Older logs do not name the agent here: its first own event does (ownEvent).
  const startedAt = Date.parse(event.timestamp);
  return [
    ...agents,
    {
      toolCallId: data.toolCallId,
      ...(data.agentId ? { id: data.agentId } : {}),
      type: data.agentName,
      name: data.agentDisplayName,
      description: data.agentDescription,
      status: "running",
      background,
      ...(event.agentId ? { parentAgentId: event.agentId } : {}),
      ...(data.model ? { model: data.model } : {}),
      startedAt: Number.isFinite(startedAt) ? startedAt : 0,
      answers: [],
      transcript: [],
    },
  ];
}

function ended(agents: readonly AgentState[], event: SessionEventOf<"subagent.completed"> | SessionEventOf<"subagent.failed">): readonly AgentState[] {
  const index = agents.findIndex((agent) => agent.toolCallId === event.data.toolCallId);
  const agent = agents[index];
  if (!agent) return agents;
  const endedAt = Date.parse(event.timestamp);
  if (event.type === "subagent.completed") {
    // An agent that answered and waits for a follow-up (idle) has completed its task and stays idle.
    return replaceAt(agents, index, { ...agent, status: agent.status === "idle" ? "idle" : "completed", endedAt });
  }
  // The engine reports a cancelled agent as failed with the error "cancelled[: why]".
  const cancelled = /^cancelled\b/.test(event.data.error);
  return replaceAt(agents, index, { ...agent, status: cancelled ? "cancelled" : "failed", error: event.data.error.replace(/^cancelled: /, ""), endedAt });
}

/** The background list: each listed agent's id and status; an idle one no longer listed has finished after its answer. */
function backgroundChanged(agents: readonly AgentState[], event: SessionEventOf<"session.background_tasks_changed">): readonly AgentState[] {
  const listed = event.data.agents;
  if (!listed) return agents;
  const byCall = new Map(listed.map((entry) => [entry.toolCallId, entry]));
  let changed = false;
  const next = agents.map((agent) => {
    if (!agent.background) return agent;
    const entry = byCall.get(agent.toolCallId);
    if (entry) {
      if (agent.id === entry.agentId && agent.status === entry.status) return agent;
      changed = true;
      return { ...agent, id: entry.agentId, status: entry.status };
    }
    if (agent.status !== "idle") return agent;
    changed = true;
    return { ...agent, status: "completed" as const, endedAt: agent.endedAt ?? Date.parse(event.timestamp) };
  });
  return changed ? next : agents;
}

/** One of an agent's own persisted events: it may name the agent, and add an answer or a transcript line. */
function ownEvent(agents: readonly AgentState[], event: SessionEvent & { agentId: string }): readonly AgentState[] {
  let index = agents.findIndex((agent) => agent.id === event.agentId);
  let agent = agents[index];
  if (!agent) {
    const parent = (event.data as { parentToolCallId?: unknown }).parentToolCallId;
    if (typeof parent !== "string") return agents;
    index = agents.findIndex((candidate) => candidate.toolCallId === parent && candidate.id === undefined);
    const unnamed = agents[index];
    if (!unnamed) return agents;
    agent = { ...unnamed, id: event.agentId };
  }
  const line = transcriptLineOf(event);
  const answer = event.type === "assistant.message" && event.data.content.trim() !== "" && !event.data.toolRequests?.length ? event.data.content : undefined;
  if (line) agent = { ...agent, transcript: agent.transcript.length < TRANSCRIPT_LINES ? [...agent.transcript, line] : [...agent.transcript.slice(1), line] };
  if (answer !== undefined) agent = { ...agent, answers: [...agent.answers, answer] };
  return agent === agents[index] ? agents : replaceAt(agents, index, agent);
}

/** The agents slice's part of the reducer: the same array for every event that changes no agent. */
export function reduceAgents(agents: readonly AgentState[], event: SessionEvent): readonly AgentState[] {
  switch (event.type) {
    case "subagent.started":
      return started(agents, event);
    case "subagent.completed":
    case "subagent.failed":
      return ended(agents, event);
    case "session.background_tasks_changed":
      return backgroundChanged(agents, event);
    default:
      // Streamed events (deltas above all) carry nothing an agent's record keeps.
      return event.agentId && !event.ephemeral && agents.length > 0 ? ownEvent(agents, event as SessionEvent & { agentId: string }) : agents;
  }
}

/** The agents /tasks lists: the background ones (MCP tasks too) the background list has named, earlier processes' included. */
export function taskAgents(agents: readonly AgentState[]): (AgentState & { id: string })[] {
  return agents.filter((agent): agent is AgentState & { id: string } => agent.background && agent.id !== undefined);
}

/** Agents still working or waiting for a message. */
export function liveAgents(agents: readonly AgentState[]): AgentState[] {
  return agents.filter((agent) => isLive(agent.status));
}
