/**
 * How a request the agent builds now is compared with the recorded one: message by message, the role, the
 * text, the tool calls (id, name, arguments) and the tool call ids. Both sides are first brought to one
 * shape (the wire's, or the fold's) and what is bound to differ between two runs is made equal: the
 * working directory and session folder (a replay runs in a scratch copy and a new folder), the clock
 * (the date header of every prompt, the system prompt's date, durations such as a subagent's "0.4 s") and
 * token counts (the endpoint's counts are not in the log, so a replay's differ).
 */
import type { ChatMessage } from "../../provider/types.js";

export interface ComparableMessage {
  role: string;
  content: string;
  toolCalls?: string[];
  toolCallId?: string;
}

export interface Difference {
  /** The message's index in the request (0: the system prompt when there is one). */
  index: number;
  what: string;
  expected: string;
  actual: string;
}

const DATETIME = /<current_datetime>[^<]*<\/current_datetime>/g;
const TODAY = /Today's date: \d{4}-\d{2}-\d{2}/g;
const DURATION = /\b\d+(?:\.\d+)? ?(?:ms|s|min)\b/g;
const TOKENS = /\b\d[\d,.]*k? tokens\b/g;

/** Rewrites what is bound to differ between a run and its replay: `replace` maps the replay's paths to the recording's. */
export function normaliser(replace: readonly (readonly [string, string])[]): (text: string) => string {
  const pairs = replace.filter(([from, to]) => from !== "" && from !== to).sort((a, b) => b[0].length - a[0].length);
  return (text) => {
    let result = text
      .replace(DATETIME, "<current_datetime>…</current_datetime>")
      .replace(TODAY, "Today's date: …")
      .replace(DURATION, "… s")
      .replace(TOKENS, "… tokens");
    for (const [from, to] of pairs) result = result.split(from).join(to);
    return result;
  };
}

export function fromChat(messages: readonly ChatMessage[]): ComparableMessage[] {
  return messages.map((message) => {
    switch (message.role) {
      case "assistant":
        return {
          role: "assistant",
          content: message.content,
          ...(message.toolCalls?.length ? { toolCalls: message.toolCalls.map((call) => `${call.id} ${call.name} ${call.arguments}`) } : {}),
        };
      case "tool":
        return { role: "tool", content: message.content, toolCallId: message.toolCallId };
      case "user":
        return { role: "user", content: message.content + "[image]".repeat(message.images?.length ?? 0) };
      default:
        return { role: message.role, content: message.content };
    }
  });
}

type WirePart = { type?: string; text?: string };
type WireMessage = {
  role?: string;
  content?: string | WirePart[] | null;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
};

export function fromWire(messages: unknown): ComparableMessage[] {
  if (!Array.isArray(messages)) return [];
  return (messages as WireMessage[]).map((message) => {
    const content = Array.isArray(message.content)
      ? message.content.map((part) => (part.type === "text" ? (part.text ?? "") : "[image]")).join("")
      : (message.content ?? "");
    return {
      role: message.role ?? "",
      content,
      ...(message.tool_calls?.length ? { toolCalls: message.tool_calls.map((call) => `${call.id} ${call.function?.name} ${call.function?.arguments}`) } : {}),
      ...(message.tool_call_id !== undefined ? { toolCallId: message.tool_call_id } : {}),
    };
  });
}

const clip = (text: string) => (text.length > 400 ? `${text.slice(0, 400)}… (${text.length} characters)` : text);

/** Where two requests first differ, or undefined when they are the same. */
export function firstDifference(
  expected: readonly ComparableMessage[],
  actual: readonly ComparableMessage[],
  normalise: (text: string) => string,
): Difference | undefined {
  const count = Math.max(expected.length, actual.length);
  for (let index = 0; index < count; index++) {
    const want = expected[index];
    const got = actual[index];
    if (!want || !got) {
      const present = (want ?? got) as ComparableMessage;
      return {
        index,
        what: want ? "a message is missing" : "an extra message",
        expected: want ? clip(`${present.role}: ${present.content}`) : "(none)",
        actual: got ? clip(`${present.role}: ${present.content}`) : "(none)",
      };
    }
    if (want.role !== got.role) return { index, what: "the role", expected: want.role, actual: got.role };
    const wantText = normalise(want.content);
    const gotText = normalise(got.content);
    if (wantText !== gotText) return { index, what: `the ${want.role} message's text`, ...aroundFirstChange(wantText, gotText) };
    const wantCalls = (want.toolCalls ?? []).map(normalise).join("\n");
    const gotCalls = (got.toolCalls ?? []).map(normalise).join("\n");
    if (wantCalls !== gotCalls) return { index, what: "the tool calls", expected: clip(wantCalls), actual: clip(gotCalls) };
    if ((want.toolCallId ?? "") !== (got.toolCallId ?? ""))
      return { index, what: "the tool call id", expected: want.toolCallId ?? "", actual: got.toolCallId ?? "" };
  }
  return undefined;
}

/** The two texts from a little before where they first differ. */
function aroundFirstChange(expected: string, actual: string): { expected: string; actual: string } {
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
  const from = Math.max(0, at - 80);
  const show = (text: string) => `${from > 0 ? "…" : ""}${clip(text.slice(from))}`;
  return { expected: show(expected), actual: show(actual) };
}
