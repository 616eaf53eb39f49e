/**
 * What each subagent said and did, as short lines (its prompts, its answers, its tool calls), for /tasks to
 * show: a transcript to read, not the conversation (that is in the log). Kept from the agent's first event,
 * so a sync agent moved to the background has its whole story; the oldest lines go past a cap.
 */
import type { SessionEvent } from "../../protocol/events/index.js";

export interface AgentTranscriptLine {
  role: "user" | "assistant" | "tool";
  text: string;
}

const MAX_LINES = 500;

export class AgentTranscripts {
  private readonly lines = new Map<string, AgentTranscriptLine[]>();

  /** Takes one event of the session (the main agent's are ignored). */
  add(event: SessionEvent): void {
    const id = event.agentId;
    if (!id) return;
    const line = lineOf(event);
    if (!line) return;
    const lines = this.of(id);
    lines.push(line);
    if (lines.length > MAX_LINES) lines.splice(0, lines.length - MAX_LINES);
  }

  /** The agent's lines (the same array goes on growing). */
  of(id: string): AgentTranscriptLine[] {
    let lines = this.lines.get(id);
    if (!lines) this.lines.set(id, (lines = []));
    return lines;
  }
}

function lineOf(event: SessionEvent): AgentTranscriptLine | undefined {
  switch (event.type) {
    case "user.message":
      return { role: "user", text: event.data.content };
    case "assistant.message":
      return event.data.content.trim() === "" ? undefined : { role: "assistant", text: event.data.content };
    case "tool.execution_start":
      return { role: "tool", text: event.data.toolTitle ?? event.data.toolName };
    default:
      return undefined;
  }
}

/** The transcript as text, for a person to read. */
export function formatTranscript(lines: readonly AgentTranscriptLine[]): string {
  if (lines.length === 0) return "(nothing yet)";
  return lines.map((line) => (line.role === "user" ? `› ${line.text}` : line.role === "tool" ? `  ⚙ ${line.text}` : line.text)).join("\n\n");
}

/** One agent for a person: who, its state, its error, and its transcript (or its latest answer). */
export function describeAgent(record: {
  id: string;
  agentType: string;
  status: string;
  description: string;
  error?: string;
  latestResponse?: string;
  transcript?: readonly AgentTranscriptLine[];
}): string {
  const body = record.transcript && record.transcript.length > 0 ? formatTranscript(record.transcript) : (record.latestResponse ?? "(no answer yet)");
  return [`${record.id} (${record.agentType}, ${record.status}): ${record.description}`, ...(record.error ? [`Error: ${record.error}`] : []), "", body].join(
    "\n",
  );
}
