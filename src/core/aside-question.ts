/**
 * A question put beside the conversation (an SDK app's session.ui.ephemeralQuery): the model answers it with
 * the session's system prompt and nothing of the conversation, no tools, and nothing is recorded — the
 * conversation, its log and the transcript stay as they were.
 */
import { randomUUID } from "../util/random-id.js";
import type { RetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import { callModel } from "./model-call.js";

export async function askAside(question: string, deps: { provider: ChatProvider; retry: RetryPolicy; systemPrompt: string }): Promise<string> {
  const result = await callModel({
    provider: deps.provider,
    retry: deps.retry,
    // Seen by no one: an aside streams nothing into the session's events.
    emit: () => undefined,
    turnId: randomUUID(),
    messages: [
      { role: "system", content: deps.systemPrompt },
      { role: "user", content: question },
    ],
    tools: [],
    signal: new AbortController().signal,
  });
  if (result.kind === "response") return result.response.content;
  throw new Error(result.kind === "error" ? `Failed to get response from the AI model: ${result.error.message}` : "The question was interrupted.");
}
