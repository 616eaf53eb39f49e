/**
 * The engine's events as ACP `session/update`s. One translator serves a live session (deltas stream as
 * chunks; the complete message that follows is not sent again) and a loaded one (the log holds only the
 * complete messages, which then are sent whole). Tool calls are announced when the model asks for them
 * (pending), updated when they start (in progress, with the tool's own title) and when they end.
 */
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { SessionEvent } from "../protocol/events/index.js";
import { textContent, toolDiff, toolKind, toolLocations, toolTitle } from "./tool-call-info.js";

interface KnownCall {
  name: string;
  args: unknown;
}

export interface TranslatorOptions {
  /** The session's directory, for relative paths in tool arguments. */
  cwd: string;
  /** Replaying a loaded session's log: the user's own messages are sent too, and nothing ephemeral is expected. */
  replay?: boolean;
}

export class UpdateTranslator {
  private readonly streamedMessages = new Set<string>();
  private readonly streamedReasoning = new Set<string>();
  private readonly calls = new Map<string, KnownCall>();
  /** How the main agent's last answer ended (`content_filter` is a refusal). */
  lastFinishReason: string | undefined;

  constructor(private readonly options: TranslatorOptions) {}

  /** The latest call of this tool the model asked for (the plan review belongs to its exit_plan_mode call). */
  lastCallNamed(name: string): string | undefined {
    return [...this.calls].reverse().find(([, call]) => call.name === name)?.[0];
  }

  translate(event: SessionEvent): SessionUpdate[] {
    // A subagent's words are its own business; its tool calls are still shown (they change things).
    const main = event.agentId === undefined;
    switch (event.type) {
      case "user.message":
        if (!this.options.replay || !main || event.data.isAutopilotContinuation || event.data.parentToolCallId) return [];
        return event.data.content === "" ? [] : [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: event.data.content } }];
      case "assistant.message_delta":
        if (!main || event.data.parentToolCallId) return [];
        this.streamedMessages.add(event.data.messageId);
        return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.data.deltaContent } }];
      case "assistant.reasoning_delta":
        if (!main) return [];
        this.streamedReasoning.add(event.data.reasoningId);
        return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.data.deltaContent } }];
      case "assistant.reasoning":
        if (!main || this.streamedReasoning.has(event.data.reasoningId) || event.data.content === "") return [];
        return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.data.content } }];
      case "assistant.message":
        return this.message(event.data, main);
      case "tool.execution_start":
        return [this.started(event.data)];
      case "tool.execution_complete":
        return [this.completed(event.data)];
      case "session.mode_changed":
        return [{ sessionUpdate: "current_mode_update", currentModeId: event.data.newMode }];
      case "session.usage_info":
        // How full the context window is (the editor's context meter); a subagent's window is its own.
        return main ? [{ sessionUpdate: "usage_update", used: event.data.currentTokens, size: event.data.tokenLimit }] : [];
      case "session.title_changed":
        return [{ sessionUpdate: "session_info_update", title: event.data.title }];
      case "session.info":
      case "session.warning":
        // What a slash command says, a warning: told as the agent's words (a loaded session does not repeat them).
        if (this.options.replay || !main) return [];
        return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${event.data.message}\n\n` } }];
      default:
        return [];
    }
  }

  private message(data: Extract<SessionEvent, { type: "assistant.message" }>["data"], main: boolean): SessionUpdate[] {
    const updates: SessionUpdate[] = [];
    if (main && !data.parentToolCallId) {
      this.lastFinishReason = data.finishReason;
      if (data.content !== "" && !this.streamedMessages.has(data.messageId)) {
        updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: data.content } });
      }
    }
    for (const request of data.toolRequests ?? []) {
      this.calls.set(request.toolCallId, { name: request.name, args: request.arguments });
      const { cwd } = this.options;
      updates.push({
        sessionUpdate: "tool_call",
        toolCallId: request.toolCallId,
        title: toolTitle(request.name, request.arguments, cwd),
        kind: toolKind(request.name),
        status: "pending",
        locations: toolLocations(request.name, request.arguments, cwd),
        content: toolDiff(request.name, request.arguments, cwd),
        rawInput: request.arguments,
      });
    }
    return updates;
  }

  private started(data: Extract<SessionEvent, { type: "tool.execution_start" }>["data"]): SessionUpdate {
    const { cwd } = this.options;
    const title = data.toolTitle ?? toolTitle(data.toolName, data.arguments, cwd);
    if (!this.calls.has(data.toolCallId)) {
      // A call nobody announced (the user's `!cmd`, a call from before this translator existed).
      this.calls.set(data.toolCallId, { name: data.toolName, args: data.arguments });
      return {
        sessionUpdate: "tool_call",
        toolCallId: data.toolCallId,
        title,
        kind: toolKind(data.toolName),
        status: "in_progress",
        locations: toolLocations(data.toolName, data.arguments, cwd),
        content: toolDiff(data.toolName, data.arguments, cwd),
        rawInput: data.arguments,
      };
    }
    return { sessionUpdate: "tool_call_update", toolCallId: data.toolCallId, status: "in_progress", title };
  }

  private completed(data: Extract<SessionEvent, { type: "tool.execution_complete" }>["data"]): SessionUpdate {
    const call = this.calls.get(data.toolCallId);
    const text = data.success ? (data.result?.content ?? "") : (data.error?.message ?? "The tool failed.");
    const content: ToolCallContent[] = [
      ...(data.success && call ? toolDiff(call.name, call.args, this.options.cwd) : []),
      ...(text !== "" ? [textContent(text)] : []),
    ];
    return {
      sessionUpdate: "tool_call_update",
      toolCallId: data.toolCallId,
      status: data.success ? "completed" : "failed",
      content,
      rawOutput: data.success ? data.result : data.error,
    };
  }
}
