/**
 * A session's transcript as the rem-agent reads it: what the person asked, what the main agent answered,
 * which tools it called with what, and the start of what they returned (tool output trimmed to a few
 * hundred characters), each line tagged with its event id for citations. Secrets are blanked by pattern
 * in every text before it is cut. Subagents' own events are left out (the consolidating agent is
 * one of them). Read from events.jsonl as text: a line that does not parse is skipped.
 */
import type { SessionEvent } from "../protocol/events/index.js";
import { redactSecrets } from "./secret-patterns.js";

const TOOL_OUTPUT_CHARS = 300;
const MESSAGE_CHARS = 2_000;
const ARGUMENT_CHARS = 200;
/** A page of the digest: a long session is read in parts. */
export const DIGEST_PAGE_CHARS = 40_000;

/** Redacted before it is cut: a key cut in half no longer matches its pattern, and half a key is still a leak. */
function trimmed(text: string, limit: number): string {
  const flat = redactSecrets(text).trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit)}… [${flat.length - limit} more characters]`;
}

function describeArguments(args: unknown): string {
  if (args === undefined) return "";
  const text = typeof args === "string" ? args : JSON.stringify(args);
  return trimmed(text ?? "", ARGUMENT_CHARS);
}

function lineOf(event: SessionEvent, toolNames: Map<string, string>): string | undefined {
  const tag = `[${event.id}]`;
  switch (event.type) {
    case "session.start":
      return `${tag} session ${event.data.sessionId} started in ${event.data.context?.cwd ?? "?"}`;
    case "user.message": {
      // Nudges the engine made (autopilot, notifications) are not the person's words.
      const source = event.data.source;
      if (source === "autopilot" || source === "notification") return undefined;
      const text = event.data.typedText ?? event.data.content;
      return `${tag} USER${source === "shell" ? " (shell command)" : ""}: ${trimmed(text, MESSAGE_CHARS)}`;
    }
    case "assistant.message": {
      const calls = (event.data.toolRequests ?? []).map((request) => request.name).join(", ");
      const text = event.data.content.trim();
      if (text === "" && calls === "") return undefined;
      return `${tag} AGENT: ${trimmed(text, MESSAGE_CHARS)}${calls ? ` (calls ${calls})` : ""}`;
    }
    case "tool.execution_start":
      toolNames.set(event.data.toolCallId, event.data.toolName);
      return `${tag} TOOL ${event.data.toolName} ${describeArguments(event.data.arguments)}`;
    case "tool.execution_complete": {
      const name = toolNames.get(event.data.toolCallId) ?? "tool";
      const output = event.data.success ? (event.data.result?.content ?? "") : `failed: ${event.data.error?.message ?? "?"}`;
      return `${tag} RESULT ${name}: ${trimmed(output, TOOL_OUTPUT_CHARS)}`;
    }
    case "session.compaction_complete":
      return event.data.success && event.data.summaryContent
        ? `${tag} SUMMARY of the earlier conversation: ${trimmed(event.data.summaryContent, MESSAGE_CHARS)}`
        : undefined;
    default:
      return undefined;
  }
}

/** The digest of an events.jsonl's text, redacted. */
export function digestEvents(text: string): string {
  const toolNames = new Map<string, string>();
  const lines: string[] = [];
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    let event: SessionEvent;
    try {
      event = JSON.parse(raw) as SessionEvent;
    } catch {
      continue;
    }
    if (typeof event !== "object" || event === null || typeof event.type !== "string" || event.agentId !== undefined || !event.data) continue;
    const line = lineOf(event, toolNames);
    if (line !== undefined) lines.push(line.replace(/\r?\n/g, "\n    "));
  }
  return lines.join("\n");
}

/** One page of a digest (1-based), with a header saying which and how many. */
export function digestPage(digest: string, page: number): string {
  const pages = Math.max(1, Math.ceil(digest.length / DIGEST_PAGE_CHARS));
  const index = Math.min(Math.max(1, Math.floor(page)), pages);
  const body = digest.slice((index - 1) * DIGEST_PAGE_CHARS, index * DIGEST_PAGE_CHARS);
  const more = index < pages ? `\n[page ${index} of ${pages}: call session_digest with page ${index + 1} for more]` : "";
  return `[page ${index} of ${pages}]\n${body === "" ? "(the session has no conversation yet)" : body}${more}`;
}
