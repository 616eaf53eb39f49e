/**
 * Engine events → view state, as a pure function. Finished things (messages, tool results, notices) are
 * appended to `items`, which only grow and are rendered once; streaming text stays in `live` until a safe
 * Markdown split point lets its finished paragraphs move to `items` too.
 */
import { toolCallSubject } from "../../protocol/tool-subject.js";
import type { SessionEvent } from "../../protocol/events/index.js";
import { neutraliseDeep, neutraliseTerminalText, splitTrailingEscape } from "../../util/terminal-text.js";
import { findSafeSplit } from "../markdown/safe-split.js";
import { rewindEventText } from "../../core/rewind/rewind-text.js";
import { reduceCompaction } from "./reduce-compaction.js";
import type { AgentUse, TranscriptItem, TranscriptState } from "./transcript-types.js";

const LIVE_OUTPUT_TAIL = 4096;

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim() ?? ""
  );
}

/** The transcript prefers what the model said a call is for. */
function describeArguments(toolName: string, args: unknown): string {
  return toolCallSubject(args, ["description", "path", "pattern", "command", "shellId"]) ?? toolName;
}

const USER_LINES_SHOWN = 24;

/** A long prompt (a big paste) is shown by its beginning; the model gets all of it. */
export function shortenForTranscript(text: string): string {
  const lines = text.split("\n");
  if (lines.length <= USER_LINES_SHOWN && text.length <= 8000) return text;
  const head = lines
    .slice(0, USER_LINES_SHOWN / 2)
    .join("\n")
    .slice(0, 4000);
  return `${head}\n… (${lines.length} lines, ${text.length} characters in all; sent in full)`;
}

function append(state: TranscriptState, ...items: TranscriptItem[]): TranscriptState {
  return { ...state, items: [...state.items, ...items] };
}

/** Moves the finished paragraphs of the live text into items. */
function commitSafePrefix(state: TranscriptState): TranscriptState {
  const live = state.live;
  if (!live) return state;
  const split = findSafeSplit(live.text);
  if (split === 0) return state;
  const done = live.text.slice(0, split).trimEnd();
  const rest = live.text.slice(split);
  const next = { ...state, live: { ...live, text: rest } };
  return done === "" ? next : append(next, { kind: "assistant", id: `${live.messageId}:${state.items.length}`, markdown: done });
}

function finishLive(state: TranscriptState, messageId?: string): TranscriptState {
  const live = state.live;
  if (!live || (messageId !== undefined && live.messageId !== messageId)) return state;
  const text = live.text.trim();
  const next = { ...state, live: undefined };
  return text === "" ? next : append(next, { kind: "assistant", id: `${live.messageId}:${state.items.length}`, markdown: text });
}

/** How one event of a subagent changes what it has used: a model call, or its tokens. */
function countUse(use: AgentUse | undefined, event: SessionEvent): AgentUse | undefined {
  if (!use) return use;
  if (event.type === "assistant.turn_start") return { ...use, turns: use.turns + 1 };
  if (event.type === "assistant.usage") return { ...use, tokens: use.tokens + (event.data.inputTokens ?? 0) + (event.data.outputTokens ?? 0) };
  return use;
}

/**
 * A subagent's own events show as its agent's activity under the call that runs it (a sync agent) or in
 * its background row: its latest tool as intent, its tool count, its model calls and tokens. Anything else
 * (its streamed text above all) changes nothing and costs no new state.
 */
function reduceAgentActivity(state: TranscriptState, event: SessionEvent): TranscriptState {
  if (event.type !== "tool.execution_start" && event.type !== "assistant.turn_start" && event.type !== "assistant.usage") return state;
  const parent = (event.data as { parentToolCallId?: string }).parentToolCallId;
  if (parent === undefined) return state;
  const intent = event.type === "tool.execution_start" ? (event.data.toolTitle ?? describeArguments(event.data.toolName, event.data.arguments)) : undefined;
  if (state.running.some((tool) => tool.toolCallId === parent && tool.agent)) {
    return {
      ...state,
      running: state.running.map((tool) => {
        if (tool.toolCallId !== parent || !tool.agent) return tool;
        const use = countUse(tool.agent.use, event);
        const agent = intent === undefined ? { ...tool.agent } : { ...tool.agent, intent, toolCalls: tool.agent.toolCalls + 1 };
        return { ...tool, agent: use ? { ...agent, use } : agent };
      }),
    };
  }
  if (state.background.some((task) => task.id === parent))
    return {
      ...state,
      background: state.background.map((task) => {
        if (task.id !== parent) return task;
        const use = countUse(task.use, event);
        // Its own events name the agent by its id (as /tasks does), also in a resumed session's history.
        return { ...task, ...(event.agentId ? { name: event.agentId } : {}), ...(intent !== undefined ? { intent } : {}), ...(use ? { use } : {}) };
      }),
    };
  return state;
}
const agentOf = (event: SessionEvent): { agentId?: string } => (event.agentId ? { agentId: event.agentId } : {});

/** A subagent's events that show: its questions for a person, and what reduceAgentActivity counts. */
const SHOWN_AGENT_EVENTS = new Set<string>([
  "permission.requested",
  "permission.completed",
  "exit_plan_mode.requested",
  "exit_plan_mode.completed",
  "elicitation.requested",
  "elicitation.completed",
  "user_input.requested",
  "user_input.completed",
  "tool.execution_start",
  "assistant.turn_start",
  "assistant.usage",
]);

/**
 * Whether an event can change the transcript at all. A subagent's streamed text and most of its other events
 * cannot (they show only as its activity): ten agents streaming send thousands, which the store then
 * neither queues nor copies.
 */
export function changesTranscript(event: SessionEvent): boolean {
  return !event.agentId || SHOWN_AGENT_EVENTS.has(event.type);
}

export function reduceTranscript(state: TranscriptState, raw: SessionEvent, now: number): TranscriptState {
  if (!changesTranscript(raw)) return state;
  // Model and tool text must never drive the terminal: every string is neutralised before it is shown.
  const event = neutraliseDeep(raw);
  switch (event.type) {
    // Any agent's question waits for a person: a subagent's too, or it would hang.
    case "permission.requested":
      return {
        ...state,
        permissions: [
          ...state.permissions,
          {
            requestId: event.data.requestId,
            request: event.data.permissionRequest,
            ...(event.data.options ? { options: event.data.options } : {}),
            ...(event.agentId ? { agentId: event.agentId } : {}),
          },
        ],
      };
    case "permission.completed":
      return { ...state, permissions: state.permissions.filter((pending) => pending.requestId !== event.data.requestId) };
    case "exit_plan_mode.requested": {
      const { requestId, summary, planContent, actions, recommendedAction } = event.data;
      return {
        ...state,
        lastPlan: planContent,
        questions: [...state.questions, { kind: "exit_plan_mode", requestId, ...agentOf(event), summary, planContent, actions, recommendedAction }],
      };
    }
    case "elicitation.requested": {
      const { requestId, message, requestedSchema, elicitationSource } = event.data;
      const required = requestedSchema.required ? { required: requestedSchema.required } : {};
      // A server's form must say it is the server asking (it may want a token), not the agent.
      const server = elicitationSource !== undefined && elicitationSource !== "ask_user" ? { server: elicitationSource } : {};
      return {
        ...state,
        questions: [
          ...state.questions,
          { kind: "elicitation", requestId, ...agentOf(event), ...server, message, properties: requestedSchema.properties, ...required },
        ],
      };
    }
    case "user_input.requested": {
      const { requestId, question, choices, allowFreeform } = event.data;
      const extra = { ...(choices ? { choices } : {}), ...(allowFreeform !== undefined ? { allowFreeform } : {}) };
      return { ...state, questions: [...state.questions, { kind: "user_input", requestId, ...agentOf(event), question, ...extra }] };
    }
    case "exit_plan_mode.completed":
    case "elicitation.completed":
    case "user_input.completed":
      return { ...state, questions: state.questions.filter((pending) => pending.requestId !== event.data.requestId) };
    default:
      break;
  }
  if (event.agentId) return reduceAgentActivity(state, event); // sub-agents' own events only show as their activity
  const compaction = reduceCompaction(state, event);
  if (compaction) return compaction;
  switch (event.type) {
    case "command.execute":
      return append(state, { kind: "user", id: event.id, text: shortenForTranscript(event.data.command) });
    case "pending_messages.modified":
      return { ...state, queue: (event.data.items ?? []).map((item) => ({ id: item.id, prompt: item.prompt })), queuePaused: event.data.paused ?? false };
    case "session.permissions_changed":
      return event.data.summary ? { ...state, permissionSummary: event.data.summary } : state;
    case "user.message": {
      // A `!cmd` result handed to the model: the tool item already shows it.
      if (event.data.source === "shell") return state;
      const next = { ...state, busy: true, turnStartedAt: state.turnStartedAt ?? now };
      // A command's template (/review, /research): the command as typed is already shown (command.execute).
      if (event.data.source?.startsWith("command:")) return next;
      if (event.data.isAutopilotContinuation)
        return append(next, { kind: "notice", id: event.id, level: "info", text: "↻ Continuing autonomously (autopilot)" });
      return append(next, { kind: "user", id: event.id, text: shortenForTranscript(event.data.content), shell: event.data.agentMode === "shell" });
    }
    case "assistant.turn_start":
      return { ...state, busy: true, turnStartedAt: state.turnStartedAt ?? now };
    case "assistant.intent":
      return { ...state, intent: event.data.intent };
    case "assistant.reasoning_delta": {
      const current = state.liveReasoning?.id === event.data.reasoningId ? state.liveReasoning.text : "";
      return { ...state, liveReasoning: { id: event.data.reasoningId, text: current + event.data.deltaContent } };
    }
    case "assistant.reasoning":
      return append({ ...state, liveReasoning: undefined }, { kind: "reasoning", id: event.id, text: event.data.content });
    case "assistant.message_delta": {
      const live = state.live?.messageId === event.data.messageId ? state.live : { messageId: event.data.messageId, text: "" };
      // Neutralised with the chunk before it, so a sequence split between two chunks goes as a whole.
      const [complete, carry] = splitTrailingEscape((live.carry ?? "") + (raw as typeof event).data.deltaContent);
      return commitSafePrefix({ ...state, live: { messageId: live.messageId, text: live.text + neutraliseTerminalText(complete), carry } });
    }
    case "assistant.turn_retry": {
      const dropped = state.live && state.live.messageId === event.data.abandonedMessageId ? { ...state, live: undefined } : state;
      return append(dropped, {
        kind: "notice",
        id: event.id,
        level: "warning",
        text: `↻ ${event.data.reason ?? "Retrying"} (retry ${event.data.attempt ?? 1})`,
      });
    }
    case "assistant.message": {
      if (state.live?.messageId === event.data.messageId) return finishLive(state);
      // Not streamed (or streamed by an abandoned attempt): show the whole message.
      const text = event.data.content.trim();
      return text === "" ? state : append(state, { kind: "assistant", id: event.data.messageId, markdown: text });
    }
    case "assistant.usage":
      return state;
    case "session.usage_info":
      return { ...state, usage: { currentTokens: event.data.currentTokens, tokenLimit: event.data.tokenLimit } };
    case "tool.execution_start": {
      const title = event.data.toolTitle ?? describeArguments(event.data.toolName, event.data.arguments);
      return {
        ...finishLive(state),
        running: [...state.running, { toolCallId: event.data.toolCallId, name: event.data.toolName, title, startedAt: now, output: "" }],
      };
    }
    case "tool.execution_partial_result":
      return {
        ...state,
        running: state.running.map((tool) =>
          tool.toolCallId === event.data.toolCallId ? { ...tool, output: (tool.output + event.data.partialOutput).slice(-LIVE_OUTPUT_TAIL) } : tool,
        ),
      };
    case "tool.execution_progress":
      return {
        ...state,
        running: state.running.map((tool) => (tool.toolCallId === event.data.toolCallId ? { ...tool, progress: event.data.progressMessage } : tool)),
      };
    case "tool.execution_complete": {
      const tool = state.running.find((candidate) => candidate.toolCallId === event.data.toolCallId);
      // A successful task_complete is shown once, by session.task_complete's item with its summary.
      if (tool?.name === "task_complete" && event.data.success)
        return { ...state, running: state.running.filter((candidate) => candidate.toolCallId !== event.data.toolCallId) };
      const output = event.data.success ? (event.data.result?.detailedContent ?? event.data.result?.content ?? "") : (event.data.error?.message ?? "failed");
      const detailed = event.data.result?.detailedContent;
      const item: TranscriptItem = {
        kind: "tool",
        id: event.data.toolCallId,
        name: tool?.name ?? "tool",
        title: tool?.title ?? "tool",
        status: event.data.success ? "success" : "failure",
        summary: firstLine(event.data.success ? (event.data.result?.content ?? "") : output),
        output,
        ...(detailed && /^(---|\+\+\+|@@|Index:|diff )/m.test(detailed) ? { diff: detailed } : {}),
        durationMs: tool ? now - tool.startedAt : 0,
        ...(event.data.isUserRequested ? { userRequested: true } : {}),
      };
      return append({ ...state, running: state.running.filter((candidate) => candidate.toolCallId !== event.data.toolCallId) }, item);
    }
    case "session.task_complete":
      return append(state, { kind: "task-complete", id: event.id, summary: event.data.summary ?? "Task complete." });
    case "session.error":
      return append(finishLive(state), { kind: "notice", id: event.id, level: "error", text: event.data.message });
    case "session.warning":
      return append(state, { kind: "notice", id: event.id, level: "warning", text: event.data.message });
    case "session.info":
      if (event.data.infoType === "fleet") return append(state, { kind: "fleet", id: event.id, text: event.data.message });
      return append(state, { kind: "notice", id: event.id, level: "info", text: event.data.message });
    case "session.autopilot_stopped":
      return append(state, { kind: "notice", id: event.id, level: "warning", text: event.data.message });
    case "session.snapshot_rewind":
      return append(state, { kind: "notice", id: event.id, level: "info", text: neutraliseTerminalText(rewindEventText(event.data)) });
    case "abort":
      return append(finishLive(state), { kind: "notice", id: event.id, level: "warning", text: "Interrupted." });
    case "subagent.selected":
      return { ...state, agentName: event.data.agentName };
    case "subagent.deselected":
      return { ...state, agentName: undefined };
    case "session.mode_changed":
      return { ...state, mode: event.data.newMode };
    case "session.objective_changed":
      return { ...state, objective: event.data.objective };
    case "session.model_change":
      return append(
        { ...state, model: event.data.newModel },
        {
          kind: "notice",
          id: event.id,
          level: "info",
          text: `Model: ${event.data.newModel}${event.data.reasoningEffort ? ` (reasoning effort ${event.data.reasoningEffort})` : ""}`,
        },
      );
    case "session.idle":
      return {
        ...finishLive({ ...state, liveReasoning: undefined }),
        busy: false,
        running: [],
        // The main agent is done, but a background agent may still be waiting for its answer: keep its questions.
        permissions: state.permissions.filter((pending) => pending.agentId !== undefined),
        questions: state.questions.filter((pending) => pending.agentId !== undefined),
        intent: undefined,
        turnStartedAt: undefined,
        backgroundShells: event.data.backgroundTasks?.shells.length ?? 0,
      };
    case "subagent.started": {
      const fresh: AgentUse = { turns: 0, tokens: 0, ...(event.data.budget ? { budget: event.data.budget } : {}) };
      if (event.data.executionMode === "sync") {
        return {
          ...state,
          running: state.running.map((tool) =>
            tool.toolCallId === event.data.toolCallId ? { ...tool, agent: { name: event.data.agentDisplayName, toolCalls: 0, use: fresh } } : tool,
          ),
        };
      }
      // A sync agent moved to the background keeps its start, its intent and what it has used.
      const moved = state.running.find((tool) => tool.toolCallId === event.data.toolCallId && tool.agent);
      return {
        ...state,
        background: [
          ...state.background.filter((task) => task.id !== event.data.toolCallId),
          {
            id: event.data.toolCallId,
            name: event.data.agentDisplayName,
            type: event.data.agentType ?? event.data.agentName,
            status: "running",
            startedAt: moved?.startedAt ?? now,
            intent: moved?.agent?.intent ?? event.data.agentDescription,
            use: moved?.agent?.use ?? fresh,
          },
        ],
      };
    }
    case "subagent.completed":
    case "subagent.failed": {
      const failed = event.type === "subagent.failed";
      // The engine reports a cancelled agent as failed with the error "cancelled[: why]"; the panel says so, as /tasks does.
      const cancelled = failed && /^cancelled\b/.test(event.data.error);
      const detail = failed ? event.data.error : event.data.durationMs !== undefined ? `${Math.round(event.data.durationMs / 1000)} s` : "done";
      // A sync agent's end shows in its task call's own line; only a background agent gets a line of its own.
      const task = state.background.find((candidate) => candidate.id === event.data.toolCallId);
      if (!task) return state;
      // An agent that answered and waits for a follow-up has completed its task, and stays idle in the panel.
      const status = cancelled ? "cancelled" : failed ? "failed" : task.status === "idle" ? "idle" : "completed";
      return append(
        { ...state, background: state.background.map((candidate) => (candidate === task ? { ...candidate, status } : candidate)) },
        { kind: "subagent", id: event.id, name: task.name, status: failed ? "failed" : "completed", detail },
      );
    }
    case "session.background_tasks_changed": {
      // Which agents work and which wait for a message; each named by its id from now on (as /tasks names it).
      const agents = new Map((event.data.agents ?? []).map((agent) => [agent.toolCallId, agent]));
      return {
        ...state,
        background: state.background.map((task) => {
          const agent = agents.get(task.id);
          if (agent) return { ...task, name: agent.agentId, status: agent.status };
          // An idle agent that leaves the list has finished after its answer (its completion is on record already).
          return task.status === "idle" ? { ...task, status: "completed" } : task;
        }),
      };
    }
    case "system.notification":
      // The request to go on after a cut is for the model; the person sees that the answer continues.
      if (event.data.kind === "output_limit")
        return append(state, { kind: "notice", id: event.id, level: "info", text: "↻ The answer reached the output limit; it continues" });
      return append(state, { kind: "notice", id: event.id, level: "info", text: event.data.content });
    default:
      return state;
  }
}
