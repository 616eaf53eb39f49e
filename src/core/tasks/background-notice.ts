/**
 * What is said about background agents: the main agent's notification when one answers or ends (it carries
 * the answer itself, up to a bound, so the model needs no read_agent round trip; a longer answer is cut with
 * a note that read_agent has the whole of it), and what the session's end says and records about them.
 */
import type { TaskRecord } from "./task-registry.js";

/** session.warning's warningType for "stopping the background agents as the session ends" (faces show it after). */
export const BACKGROUND_AGENTS_STOPPED = "background_agents_stopped";

/** How much of an answer a notification carries. */
export const NOTICE_ANSWER_CHARS = 4_000;

function answerOf(record: TaskRecord): string {
  const answer = record.latestResponse?.trim() ?? "";
  if (answer === "") return "It gave no answer.";
  if (answer.length <= NOTICE_ANSWER_CHARS) return `Its answer:\n\n${answer}`;
  const rest = answer.length - NOTICE_ANSWER_CHARS;
  return `Its answer (the first ${NOTICE_ANSWER_CHARS} characters):\n\n${answer.slice(0, NOTICE_ANSWER_CHARS)}\n\n[… ${rest} more characters: read_agent ${record.id} returns the whole answer]`;
}

/** Tells the main agent, in words, what happened to a background agent (nothing while it works). */
export function backgroundNotice(record: TaskRecord): string | undefined {
  const who = `Background agent ${record.id} (${record.agentType})`;
  switch (record.status) {
    case "idle":
      return `${who} has answered and waits for a follow-up (write_agent), if you have one. ${answerOf(record)}`;
    case "completed":
      return `${who} has finished. ${answerOf(record)}`;
    case "failed":
      // A budget's grace turn leaves a report: it comes with the failure, like an answer.
      return `${who} failed: ${record.error ?? "unknown error"}.${record.latestResponse !== undefined ? ` ${answerOf(record)}` : ""}`;
    case "cancelled":
      return `${who} was cancelled${record.error ? `: ${record.error}` : ""}.`;
    case "running":
      return undefined;
  }
}

/** subagent.failed's error for a cancelled agent: "cancelled", with the reason when there is one. */
export const cancelledError = (record: TaskRecord): string => (record.error ? `cancelled: ${record.error}` : "cancelled");

/** What stopping the session's background agents does to each, by id. */
export function stoppingMessage(records: readonly TaskRecord[]): string {
  const each = records.map((record) => `${record.id} (${record.status === "idle" ? "idle after its answer: completed" : "running: cancelled"})`);
  return `Stopping ${records.length} background agent${records.length === 1 ? "" : "s"} as the session ends: ${each.join(", ")}.`;
}
