/**
 * The pure parts of compaction: which recent messages stay verbatim, how the history is made to fit the
 * summarising request, how the summary joins the conversation, and the checkpoint's title.
 */
import type { ChatMessage } from "../../provider/types.js";
import { CHARS_PER_TOKEN, messageTokens } from "./token-accounting.js";

/** The share of the prompt limit the verbatim tail may take (the rest is for the summary and new work). */
export const TAIL_SHARE = 0.2;

/**
 * How many of the oldest messages the summary replaces. The newest messages stay as they are, up to
 * `tailTokens` and at most half of the messages (so a compaction always frees something). The tail never
 * starts with a tool result: an assistant's tool calls and their results stay together, so the request
 * after the compaction is still a valid conversation. When the cut falls among tool results, the tail
 * reaches back to the assistant message that asked for them if that still fits the budget (mid-task, the
 * model then sees its last call and what came of it), else the results go with the summary.
 */
export function messagesToReplace(history: readonly ChatMessage[], tailTokens: number): number {
  const maxKept = Math.floor(history.length / 2);
  let start = history.length;
  let used = 0;
  while (start > 0 && history.length - start < maxKept) {
    const cost = messageTokens(history[start - 1] as ChatMessage);
    if (used + cost > tailTokens) break;
    used += cost;
    start--;
  }
  if (history[start]?.role !== "tool") return start;
  let owner = start;
  let extra = 0;
  while (owner > 0 && history[owner]?.role === "tool") {
    owner--;
    extra += messageTokens(history[owner] as ChatMessage);
  }
  if (owner > 0 && history[owner]?.role === "assistant" && used + extra <= tailTokens) return owner;
  while (start < history.length && history[start]?.role === "tool") start++;
  return start;
}

const LEFT_OUT = (chars: number) => `\n[… ${chars} characters left out to fit the summary request …]\n`;

/**
 * The history as the summarising request sends it, within `budgetChars`: when it is too long, the longest
 * contents are shortened to their beginning and end (one cap for all, as high as fits), so every message
 * keeps its place and its role and only bulk (long tool output, pasted files) is cut.
 */
export function fitForSummary(history: readonly ChatMessage[], budgetChars: number): ChatMessage[] {
  const lengths = history.map((message) => message.content.length);
  const total = lengths.reduce((sum, length) => sum + length, 0);
  if (total <= budgetChars) return [...history];
  let low = 0;
  let high = Math.max(0, ...lengths);
  while (low < high) {
    const cap = Math.ceil((low + high) / 2);
    const used = lengths.reduce((sum, length) => sum + Math.min(length, cap), 0);
    if (used <= budgetChars) low = cap;
    else high = cap - 1;
  }
  const cap = Math.max(200, low);
  return history.map((message) => {
    if (message.content.length <= cap) return message;
    const half = Math.floor(cap / 2);
    const content = message.content.slice(0, half) + LEFT_OUT(message.content.length - cap) + message.content.slice(-half);
    return { ...message, content };
  });
}

/** The budget of history characters for the summarising request, given the limit and what else it carries. */
export function summaryBudgetChars(tokenLimit: number, fixedTokens: number): number {
  // Room is kept for the request's own prompt and the summary the model writes.
  const reserve = Math.min(8_000, Math.ceil(tokenLimit * 0.2));
  return Math.max(2_000, (tokenLimit - fixedTokens - reserve) * CHARS_PER_TOKEN);
}

/** How the summary stands in for the messages it replaced (a user message, the first after the system prompt). */
export function summaryMessage(summary: string): string {
  return [
    "<conversation_summary>",
    "The earlier part of this conversation was compacted to free context. This summary replaces it; the messages after it follow on directly.",
    "",
    summary.trim(),
    "</conversation_summary>",
  ].join("\n");
}

/** The title the model gave in <checkpoint_title>, else the first words of the overview. */
export function checkpointTitle(summary: string): string {
  const tagged = /<checkpoint_title>\s*([\s\S]*?)\s*<\/checkpoint_title>/i.exec(summary)?.[1];
  const overview = /<overview>\s*([\s\S]*?)\s*<\/overview>/i.exec(summary)?.[1];
  const text = (tagged || overview || summary).replace(/\s+/g, " ").trim();
  const title = text.length > 80 ? `${text.slice(0, 77).trimEnd()}…` : text;
  return title === "" ? "Compacted conversation" : title;
}

/** "Fix the login bug!" → "fix-the-login-bug". */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  return slug === "" ? "checkpoint" : slug;
}
