/**
 * The conversation as a person would read it back, folded from the session's log: what the user said,
 * what the agent answered, and each tool call with its arguments and result. /share turns it into Markdown
 * or an HTML page. Subagents' own events are left out (their work shows as the `task` call that ran them).
 */
import type { SessionEvent } from "../../protocol/events/index.js";

export type TranscriptEntry =
  /**
   * `command`: the slash command whose template `text` is (`review`): shown as typed (`typed`, the whole line, when
   * the log has it), the template collapsed.
   */
  | { kind: "user"; text: string; shell?: boolean; command?: string; typed?: string }
  | { kind: "assistant"; text: string }
  | { kind: "tool"; name: string; title: string; arguments: string; status: "success" | "failure" | "unfinished"; output: string }
  | { kind: "note"; text: string };

export interface Transcript {
  title: string;
  sessionId: string;
  cwd?: string;
  startedAt?: string;
  entries: TranscriptEntry[];
}

function argumentsText(value: unknown): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

export function buildTranscript(events: readonly SessionEvent[], meta: { sessionId: string; name?: string }): Transcript {
  const entries: TranscriptEntry[] = [];
  const tools = new Map<string, Extract<TranscriptEntry, { kind: "tool" }>>();
  let cwd: string | undefined;
  let startedAt: string | undefined;
  let firstPrompt: string | undefined;
  for (const event of events) {
    if (event.agentId) continue;
    switch (event.type) {
      case "session.start":
        cwd = event.data.context?.cwd;
        startedAt = event.data.startTime;
        break;
      case "user.message":
        // Autopilot's nudges and notification turns are the engine talking, not the person.
        if (event.data.source === "autopilot" || event.data.source === "notification" || event.data.content === "") break;
        if (event.data.source?.startsWith("command:")) {
          const command = event.data.source.slice("command:".length);
          const typed = event.data.typedText;
          firstPrompt ??= typed ?? `/${command}`;
          entries.push({ kind: "user", text: event.data.content, command, ...(typed !== undefined ? { typed } : {}) });
          break;
        }
        firstPrompt ??= event.data.content;
        entries.push({ kind: "user", text: event.data.content, ...(event.data.agentMode === "shell" ? { shell: true } : {}) });
        break;
      case "assistant.message":
        if (event.data.content.trim() !== "") entries.push({ kind: "assistant", text: event.data.content });
        break;
      case "tool.execution_start": {
        if (event.data.parentToolCallId) break;
        const entry = {
          kind: "tool" as const,
          name: event.data.toolName,
          title: event.data.toolTitle ?? event.data.toolName,
          arguments: argumentsText(event.data.arguments),
          status: "unfinished" as Extract<TranscriptEntry, { kind: "tool" }>["status"],
          output: "",
        };
        tools.set(event.data.toolCallId, entry);
        entries.push(entry);
        break;
      }
      case "tool.execution_complete": {
        const entry = tools.get(event.data.toolCallId);
        if (!entry) break;
        entry.status = event.data.success ? "success" : "failure";
        entry.output = event.data.success ? (event.data.result?.content ?? "") : (event.data.error?.message ?? "failed");
        break;
      }
      case "session.error":
        entries.push({ kind: "note", text: `Error: ${event.data.message}` });
        break;
      case "session.task_complete":
        if (event.data.summary) entries.push({ kind: "note", text: `Task complete: ${event.data.summary}` });
        break;
      default:
        break;
    }
  }
  const title = meta.name ?? (firstPrompt ? firstPrompt.split("\n")[0]?.slice(0, 80) : undefined) ?? `Session ${meta.sessionId}`;
  return { title: title || `Session ${meta.sessionId}`, sessionId: meta.sessionId, ...(cwd ? { cwd } : {}), ...(startedAt ? { startedAt } : {}), entries };
}

/** The last thing the agent said (for /copy): the latest non-empty answer of the main agent. */
export function lastAnswer(events: readonly SessionEvent[]): string | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as SessionEvent;
    if (!event.agentId && event.type === "assistant.message" && event.data.content.trim() !== "") return event.data.content;
  }
  return undefined;
}
