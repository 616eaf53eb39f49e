/**
 * The scripted server's built-in demo behaviour, so a person can try the agent by hand:
 *  - last message `user`  → a short streamed text saying what it will do + a `bash` tool call
 *                            `{"command":"ls","description":"List files"}`;
 *  - last message `tool`  → a `task_complete` tool call `{"summary":"Listed the files."}` when the
 *                            request offers a tool named `task_complete`; otherwise the streamed text
 *                            `The command printed N lines.` (N = lines of the tool message content);
 *                            after a `task_complete` result: `All done.`;
 *  - `tool_choice: "none"` → a compaction summary (DEMO_SUMMARY);
 *  - anything else        → a short greeting.
 */
import { text, toolCall, type ChatMessageLike, type CompletionRequest, type ScriptedResponse } from "./scripted-responses.js";

export const DEMO_INTRO = "I'll list the files in the current directory.";

export const DEMO_SUMMARY = [
  "<overview>The user asked for the files of the current directory; they were listed.</overview>",
  "<history>1. The user asked; `ls` was run.</history>",
  "<work_done>Listed the files.</work_done>",
  "<technical_details>None.</technical_details>",
  "<important_files>None.</important_files>",
  "<next_steps>None</next_steps>",
  "<checkpoint_title>Listed the files</checkpoint_title>",
].join("\n");

export function demoResponder(request: Pick<CompletionRequest, "body">): ScriptedResponse {
  const messages = request.body.messages;
  // A compaction request (tool_choice "none"): a summary in the asked-for sections.
  if (request.body.tool_choice === "none") return text(DEMO_SUMMARY);
  const last = messages.at(-1);
  if (last?.role === "user") {
    return toolCall("bash", { command: "ls", description: "List files" }, { text: DEMO_INTRO });
  }
  if (last?.role === "tool") {
    if (calledToolName(messages, last) === "task_complete") return text("All done.");
    if (offersTool(request.body.tools, "task_complete")) {
      return toolCall("task_complete", { summary: "Listed the files." });
    }
    return text(`The command printed ${countLines(contentText(last.content))} lines.`);
  }
  return text("Hello from the scripted demo server. Send a user message and I will run `ls`.");
}

/** Number of lines in `s` (a trailing newline does not start a new line; "" has 0 lines). */
export function countLines(s: string): number {
  if (s === "") return 0;
  return s.replace(/\r?\n$/, "").split(/\r?\n/).length;
}

/** Text of a message's content: a string, or the `text` of its content parts. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part: unknown) => (isRecord(part) && typeof part["text"] === "string" ? part["text"] : "")).join("");
}

function offersTool(tools: unknown[] | undefined, name: string): boolean {
  return (tools ?? []).some((tool) => {
    if (!isRecord(tool)) return false;
    const fn = tool["function"];
    return (isRecord(fn) && fn["name"] === name) || tool["name"] === name;
  });
}

/** Name of the tool call a `tool` message answers, looked up in the preceding assistant messages. */
function calledToolName(messages: ChatMessageLike[], toolMessage: ChatMessageLike): string | undefined {
  const id = toolMessage["tool_call_id"];
  for (const message of messages) {
    const calls = message["tool_calls"];
    if (message.role !== "assistant" || !Array.isArray(calls)) continue;
    for (const call of calls as unknown[]) {
      if (!isRecord(call) || call["id"] !== id) continue;
      const fn = call["function"];
      if (isRecord(fn) && typeof fn["name"] === "string") return fn["name"];
    }
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
