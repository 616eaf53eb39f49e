/**
 * What a replay needs from a recorded session, read from its log alone: the steps a person took (prompts,
 * `!cmd`, mode and model switches, /compact, rewinds), in order, and every model call the session made with
 * the answer it got and the request it sent.
 *
 * The log does not keep the HTTP requests themselves. What it keeps is every event the request was built
 * from, and the conversation fold (conversation.ts) makes a request's messages from them exactly as the
 * live session did; so a call's recorded request is the fold of the log up to that call's answer, per
 * agent: the system prompt and each message's role, text, tool calls and tool call ids. Tool definitions,
 * sampling settings and token counts are not in the log and are not compared.
 */
import type { AgentMode, Attachment, SessionEvent } from "../../protocol/events/index.js";
import type { ChatMessage, ChatToolCall } from "../../provider/types.js";
import type { RewindScope } from "../../protocol/rewind.js";
import type { ToolOutcome } from "../../tools/define-tool.js";
import { Conversation, toolCallArguments } from "../conversation.js";

export type ReplayStep =
  | { kind: "prompt"; prompt: string; source?: string; typed?: string; attachments?: Attachment[]; number: number }
  | { kind: "shell"; command: string }
  | { kind: "mode"; mode: AgentMode }
  | { kind: "model"; model: string }
  | { kind: "compact"; focus?: string }
  | { kind: "rewind"; upToEventId: string; scope: RewindScope; overwrite: readonly string[] };

export type RecordedAnswer =
  { kind: "chat"; content: string; toolCalls: ChatToolCall[]; reasoning?: string; finishReason?: string } | { kind: "compaction"; summary: string };

export interface RecordedCall {
  /** Whose call: the main agent (undefined) or a subagent. */
  agentId?: string;
  answer: RecordedAnswer;
  /** The request's messages as the fold of the log makes them (chat calls). */
  request?: ChatMessage[];
  /** The prompt it answered (its number among the steps' prompts), for the report. */
  promptNumber: number;
}

export interface ReplayScript {
  sessionId: string;
  cwd: string;
  model: string;
  mode: AgentMode;
  steps: ReplayStep[];
  calls: RecordedCall[];
  /** What each tool call returned, by its id (the model's calls) or in order (a person's `!cmd`). */
  outcomes: Map<string, ToolOutcome>;
  userCommandOutcomes: ToolOutcome[];
  /** The points (main user prompts and rewinds) in log order: a rewind's target is found by its place here. */
  points: string[];
}

const SHELL_COMMAND = /^<user_shell_command_output>\n<command>([\s\S]*?)<\/command>/;

function outcomeOf(event: Extract<SessionEvent, { type: "tool.execution_complete" }>): ToolOutcome {
  const { data } = event;
  if (data.success)
    return { content: data.result?.content ?? "", ...(data.result?.detailedContent !== undefined ? { detailedContent: data.result.detailedContent } : {}) };
  return {
    content: data.error?.message ?? data.result?.content ?? "The tool failed.",
    success: false,
    ...(data.error?.code ? { errorCode: data.error.code } : {}),
  };
}

export function replayScript(events: readonly SessionEvent[]): ReplayScript {
  const start = events.find((event) => event.type === "session.start");
  const folds = new Map<string | undefined, Conversation>();
  const fold = (agentId: string | undefined) => {
    let found = folds.get(agentId);
    if (!found) folds.set(agentId, (found = new Conversation(agentId)));
    return found;
  };
  const script: ReplayScript = {
    sessionId: start?.type === "session.start" ? start.data.sessionId : "",
    cwd: start?.type === "session.start" ? (start.data.context?.cwd ?? "") : "",
    model: start?.type === "session.start" ? (start.data.selectedModel ?? "") : "",
    mode: "interactive",
    steps: [],
    calls: [],
    outcomes: new Map(),
    userCommandOutcomes: [],
    points: [],
  };
  let prompts = 0;
  /** The main agent's tool calls still running: a switch made then is the agent's (exit_plan_mode), not a person's. */
  const running = new Set<string>();
  for (const event of events) {
    const main = event.agentId === undefined;
    switch (event.type) {
      case "user.message":
        if (!main) break;
        script.points.push(event.id);
        if (event.data.agentMode === "shell") {
          const command = SHELL_COMMAND.exec(event.data.content)?.[1];
          if (command !== undefined) script.steps.push({ kind: "shell", command });
        } else if (!event.data.isAutopilotContinuation && event.data.source !== "hook" && event.data.source !== "notification") {
          prompts++;
          script.steps.push({
            kind: "prompt",
            prompt: event.data.content,
            number: prompts,
            ...(event.data.source ? { source: event.data.source } : {}),
            ...(event.data.typedText !== undefined ? { typed: event.data.typedText } : {}),
            ...(event.data.attachments ? { attachments: event.data.attachments } : {}),
          });
        }
        break;
      case "assistant.message":
        script.calls.push({
          ...(main ? {} : { agentId: event.agentId }),
          answer: {
            kind: "chat",
            content: event.data.content,
            toolCalls: (event.data.toolRequests ?? []).map((request) => ({
              id: request.toolCallId,
              name: request.name,
              arguments: toolCallArguments(request),
            })),
            ...(event.data.reasoningText ? { reasoning: event.data.reasoningText } : {}),
            ...(event.data.finishReason ? { finishReason: event.data.finishReason } : {}),
          },
          request: fold(event.agentId).messages(),
          promptNumber: prompts,
        });
        break;
      case "session.compaction_start":
        if (main && event.data.trigger === "manual") script.steps.push({ kind: "compact" });
        break;
      case "session.compaction_complete":
        if (event.data.success && event.data.summaryContent !== undefined) {
          const step = script.steps.at(-1);
          if (step?.kind === "compact" && event.data.customInstructions) step.focus = event.data.customInstructions;
          script.calls.push({
            ...(main ? {} : { agentId: event.agentId }),
            answer: { kind: "compaction", summary: event.data.summaryContent },
            promptNumber: prompts,
          });
        }
        break;
      case "tool.execution_start":
        if (main) running.add(event.data.toolCallId);
        break;
      case "tool.execution_complete":
        running.delete(event.data.toolCallId);
        if (event.data.isUserRequested) script.userCommandOutcomes.push(outcomeOf(event));
        else script.outcomes.set(event.data.toolCallId, outcomeOf(event));
        break;
      case "session.mode_changed":
        if (!main || running.size > 0) break;
        if (script.steps.length === 0) script.mode = event.data.newMode;
        else script.steps.push({ kind: "mode", mode: event.data.newMode });
        break;
      case "session.model_change":
        if (main && running.size === 0) script.steps.push({ kind: "model", model: event.data.newModel });
        break;
      case "session.snapshot_rewind":
        script.points.push(event.id);
        script.steps.push({
          kind: "rewind",
          upToEventId: event.data.upToEventId,
          scope: event.data.scope ?? "conversation-and-files",
          overwrite: (event.data.restoredFiles ?? []).slice(),
        });
        break;
      default:
        break;
    }
    fold(event.agentId).apply(event);
  }
  return script;
}
