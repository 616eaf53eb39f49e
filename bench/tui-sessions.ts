/**
 * Prepared sessions for the TUI bench: an AGENT_HOME holding one session whose log has N prior messages
 * (N/2 exchanges of a user message and a Markdown assistant answer), in the layout the agent writes
 * (`session-state/<uuid>/events.jsonl` + `workspace.yaml`), with the event shapes of a real
 * `agent -p` run. The log is checked with the agent's own reader, so a schema change fails loudly here.
 *
 * Two shapes: "text" (each exchange a question and a Markdown answer: 4 events) and "tools" (each exchange a
 * question, a model call asking for a `view` and a `bash` call, their results, then the answer: 10 events),
 * the shape of a real coding session, where most of the log is tool calls and their output.
 */
import { randomUUID } from "node:crypto";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseEventLog } from "../src/session/event-log-reader.js";

export type SessionShape = "text" | "tools";

/** Events per exchange in each shape (session.start and system.message come once). */
export const EVENTS_PER_EXCHANGE: Record<SessionShape, number> = { text: 4, tools: 10 };

export interface PreparedSession {
  /** An AGENT_HOME to copy for each run (a resumed session appends to its log). */
  home: string;
  id: string;
  messages: number;
  shape: SessionShape;
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

/** What a `view` of a source file returns: numbered lines, as the tool prints them. */
function viewOutput(n: number): string {
  return Array.from({ length: 30 }, (_, line) => `${line + 1}. export const handler${n}_${line} = (request) => retry(request, { attempts: 2 });`).join("\n");
}

/** What `bash` returns for a test run. */
function shellOutput(n: number): string {
  return [
    `> vitest run test/request-${n}.test.ts`,
    "",
    ` ✓ test/request-${n}.test.ts (6 tests) 41ms`,
    "",
    " Test Files  1 passed (1)",
    "      Tests  6 passed (6)",
    "<exited with exit code 0>",
  ].join("\n");
}

/**
 * Write an AGENT_HOME with one session of `messages` prior messages (an even number: a question and its
 * answer per exchange) of the given shape; returns its id.
 */
export function prepareSession(home: string, cwd: string, messages: number, model: string, shape: SessionShape = "text"): PreparedSession {
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
    if (shape === "tools") {
      const turn = `${n}.0`;
      const calls = [
        { toolCallId: `call_view_${n}`, name: "view", arguments: { path: `${cwd}/src/request-${n}.ts` }, result: viewOutput(n) },
        {
          toolCallId: `call_bash_${n}`,
          name: "bash",
          arguments: { command: `npx vitest run test/request-${n}.test.ts`, description: "Run the tests" },
          result: shellOutput(n),
        },
      ];
      add("assistant.turn_start", { turnId: turn, model });
      add("assistant.message", {
        messageId: randomUUID(),
        content: "",
        toolRequests: calls.map(({ toolCallId, name, arguments: args }) => ({ toolCallId, name, arguments: args, type: "function" })),
        model,
        outputTokens: 40,
        finishReason: "tool_calls",
        turnId: turn,
      });
      for (const call of calls) add("tool.execution_start", { toolCallId: call.toolCallId, toolName: call.name, arguments: call.arguments, turnId: turn });
      for (const call of calls)
        add("tool.execution_complete", {
          toolCallId: call.toolCallId,
          success: true,
          model,
          result: { content: call.result, detailedContent: call.result },
          turnId: turn,
        });
      add("assistant.turn_end", { turnId: turn, model });
    }
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
  return { home, id, messages: exchanges * 2, shape, lastAnswerMarker: `Answer ${String(exchanges).padStart(4, "0")}:` };
}

/** A fresh copy of a prepared AGENT_HOME (so every run resumes the same log). */
export function copyHome(session: PreparedSession, target: string): string {
  cpSync(session.home, target, { recursive: true });
  return target;
}
