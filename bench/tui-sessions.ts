/**
 * Prepared sessions for the TUI bench: an AGENT_HOME holding one session whose log has N prior messages
 * (N/2 exchanges of a user message and a Markdown assistant answer), in the layout the agent writes
 * (`session-state/<uuid>/events.jsonl` + `workspace.yaml`), with the event shapes of a real
 * `agent -p` run. The log is checked with the agent's own reader, so a schema change fails loudly here.
 */
import { randomUUID } from "node:crypto";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseEventLog } from "../src/session/event-log-reader.js";

export interface PreparedSession {
  /** An AGENT_HOME to copy for each run (a resumed session appends to its log). */
  home: string;
  id: string;
  messages: number;
  /** Text of the last assistant answer, to see that the resumed transcript was drawn. */
  lastAnswerMarker: string;
}

function userText(n: number): string {
  return `Question ${n}: how does the module that handles request ${n} deal with retries and timeouts?`;
}

function answerText(n: number): string {
  return [
    `Answer ${String(n).padStart(4, "0")}: the handler retries **twice** with backoff, then reports the error.`,
    "",
    "- It reads the `retry-after` header when there is one.",
    "- Otherwise it waits 500 ms, then 1 s.",
    "",
    "```ts",
    `const delay = attempt === 0 ? 500 : 1000; // request ${n}`,
    "await sleep(delay);",
    "```",
  ].join("\n");
}

/** Write an AGENT_HOME with one session of `messages` prior messages (an even number); returns its id. */
export function prepareSession(home: string, cwd: string, messages: number, model: string): PreparedSession {
  const id = randomUUID();
  const dir = path.join(home, "session-state", id);
  mkdirSync(dir, { recursive: true });
  const start = Date.parse("2026-01-01T00:00:00.000Z");
  let clock = start;
  let parentId: string | null = null;
  const lines: string[] = [];
  const add = (type: string, data: Record<string, unknown>): void => {
    const eventId = randomUUID();
    lines.push(JSON.stringify({ id: eventId, timestamp: new Date((clock += 7)).toISOString(), parentId, type, data }));
    parentId = eventId;
  };
  add("session.start", {
    sessionId: id,
    version: 1,
    producer: "agent",
    copilotVersion: "0.1.0",
    startTime: new Date(start).toISOString(),
    selectedModel: model,
    mode: "interactive",
    context: { cwd },
  });
  add("system.message", { content: "You are agent, a coding assistant (bench session).", role: "system" });
  const exchanges = Math.floor(messages / 2);
  for (let n = 1; n <= exchanges; n++) {
    const content = userText(n);
    add("user.message", {
      content,
      transformedContent: `<current_datetime>${new Date(clock).toISOString()}</current_datetime>\n\n${content}`,
      messageId: randomUUID(),
      agentMode: "interactive",
      delivery: "idle",
      interactionId: randomUUID(),
    });
    add("assistant.turn_start", { turnId: String(n), model });
    add("assistant.message", { messageId: randomUUID(), content: answerText(n), model, outputTokens: 60, finishReason: "stop", turnId: String(n) });
    add("assistant.turn_end", { turnId: String(n), model });
  }
  const text = `${lines.join("\n")}\n`;
  const parsed = parseEventLog(text);
  if (parsed.skipped.length > 0 || parsed.events.length !== lines.length) {
    throw new Error(`bench: the generated session log does not read back: ${JSON.stringify(parsed.skipped.slice(0, 3))}`);
  }
  writeFileSync(path.join(dir, "events.jsonl"), text);
  const metadata = [
    `client_name: "agent"`,
    `id: ${JSON.stringify(id)}`,
    `cwd: ${JSON.stringify(cwd)}`,
    "user_named: false",
    `created_at: ${JSON.stringify(new Date(start).toISOString())}`,
    `updated_at: ${JSON.stringify(new Date(clock).toISOString())}`,
    `first_prompt: ${JSON.stringify(userText(1))}`,
    `event_count: ${lines.length}`,
    `model: ${JSON.stringify(model)}`,
  ];
  writeFileSync(path.join(dir, "workspace.yaml"), `${metadata.join("\n")}\n`);
  return { home, id, messages: exchanges * 2, lastAnswerMarker: `Answer ${String(exchanges).padStart(4, "0")}:` };
}

/** A fresh copy of a prepared AGENT_HOME (so every run resumes the same log). */
export function copyHome(session: PreparedSession, target: string): string {
  cpSync(session.home, target, { recursive: true });
  return target;
}
