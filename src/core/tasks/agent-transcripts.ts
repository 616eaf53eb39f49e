/**
 * What each subagent said and did, as short lines (its prompts, its answers, its tool calls), for /tasks to
 * show: a transcript to read, not the conversation (that is in the log). The session's state keeps each
 * agent's lines from its first event (state/agents-state.ts), so a sync agent moved to the background has its
 * whole story; the oldest lines go past a cap.
 */
import type { SessionEvent } from "../../protocol/events/index.js";

export interface AgentTranscriptLine {
  role: "user" | "assistant" | "tool";
  text: string;
}

/** The line one of an agent's events adds to its transcript, if any. */
export function transcriptLineOf(event: SessionEvent): AgentTranscriptLine | undefined {
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

/** One agent for a person (as the session's state has it): who, its state, its error, and its transcript (or its latest answer). */
export function describeAgent(agent: {
  id: string;
  type: string;
  status: string;
  description: string;
  error?: string;
  answers: readonly string[];
  transcript: readonly AgentTranscriptLine[];
}): string {
  const body = agent.transcript.length > 0 ? formatTranscript(agent.transcript) : (agent.answers.at(-1) ?? "(no answer yet)");
  return [`${agent.id} (${agent.type}, ${agent.status}): ${agent.description}`, ...(agent.error ? [`Error: ${agent.error}`] : []), "", body].join("\n");
}
