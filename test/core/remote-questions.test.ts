/**
 * The shared adapter for questions put to remote clients, over stand-in clients: every client sees every
 * event; a question goes to each client able to answer it, after the events before it reached that client;
 * the first answer wins and the others are withdrawn; no client able to ask means the kind's "unavailable"
 * answer at once; an unanswered question lapses after the time limit.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { RemoteQuestions, type QuestionClient, type RemoteQuestion } from "../../src/core/remote-questions.js";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import type { InteractionKind, InteractionReply } from "../../src/protocol/interactions.js";

afterEach(() => void vi.useRealTimers());

const event = (type: string, data: object): SessionEvent =>
  ({ id: `${type}-${Math.random()}`, timestamp: "", parentId: null, type, data }) as unknown as SessionEvent;
const permission = (requestId: string) =>
  event("permission.requested", { requestId, permissionRequest: { kind: "url", url: "https://x.test", intention: "fetch" } });
const userInput = (requestId: string) => event("user_input.requested", { requestId, question: "Which colour?" });

/** A client that records what it sees and answers when the test says so. */
function standIn(kinds: InteractionKind[], options: { fails?: boolean; readsEvents?: boolean } = {}) {
  const seen: string[] = [];
  const asked: { question: RemoteQuestion; signal: AbortSignal; answer(reply: InteractionReply): void; fail(): void }[] = [];
  let deliveredUpTo = 0;
  let release: () => void = () => undefined;
  const client: QuestionClient = {
    canAnswer: (kind) => kinds.includes(kind),
    deliver: (sent) => void seen.push(sent.type),
    // The events are "delivered" only when the test lets them be.
    delivered: () =>
      new Promise<void>((resolve) => {
        release = () => {
          deliveredUpTo = seen.length;
          resolve();
        };
      }),
    ask: (question, signal) => {
      if (options.readsEvents) return Promise.resolve(undefined);
      return new Promise((resolve, reject) => {
        asked.push({ question, signal, answer: resolve, fail: () => reject(new Error("no handler")) });
        if (options.fails) reject(new Error("no handler"));
      });
    },
  };
  return { client, seen, asked, deliver: () => release(), deliveredUpTo: () => deliveredUpTo };
}

function adapter(timeoutMs?: number) {
  const responses: [string, InteractionReply][] = [];
  const questions = new RemoteQuestions({
    respond: (requestId, reply) => {
      if (responses.some(([id]) => id === requestId)) return `No question with id ${requestId} is waiting for an answer.`;
      responses.push([requestId, reply]);
      return undefined;
    },
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  return { questions, responses };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("remote questions", () => {
  it("delivers every event to every client, and asks each able client once the events before it reached it", async () => {
    const { questions } = adapter();
    const a = standIn(["permission"]);
    const b = standIn(["permission"]);
    const c = standIn([]);
    for (const stand of [a, b, c]) questions.attach(stand.client);
    questions.onEvent(event("tool.execution_start", { toolCallId: "t1" }));
    questions.onEvent(permission("p1"));
    expect([a.seen, b.seen, c.seen]).toEqual(Array(3).fill(["tool.execution_start", "permission.requested"]));
    expect(questions.canAnswer("permission")).toBe(true);
    expect(questions.canAnswer("user_input")).toBe(false);
    await settle();
    // Not asked before the events before it were delivered.
    expect(a.asked).toHaveLength(0);
    a.deliver();
    b.deliver();
    await settle();
    expect(a.asked.map((ask) => ask.question.data.requestId)).toEqual(["p1"]);
    expect(b.asked).toHaveLength(1);
    expect(c.asked).toHaveLength(0);
    expect(a.deliveredUpTo()).toBe(2);
  });

  it("takes the first answer and withdraws the question from the others once the engine says it is over", async () => {
    const { questions, responses } = adapter();
    const a = standIn(["user_input"]);
    const b = standIn(["user_input"]);
    questions.attach(a.client);
    questions.attach(b.client);
    questions.onEvent(userInput("q1"));
    a.deliver();
    b.deliver();
    await settle();
    b.asked[0]?.answer({ answer: "blue", wasFreeform: true });
    await settle();
    expect(responses).toEqual([["q1", { answer: "blue", wasFreeform: true }]]);
    expect(a.asked[0]?.signal.aborted).toBe(false);
    questions.onEvent(event("user_input.completed", { requestId: "q1", answer: "blue" }));
    expect(a.asked[0]?.signal.aborted).toBe(true);
    // A late answer changes nothing.
    a.asked[0]?.answer({ answer: "red" });
    await settle();
    expect(responses).toHaveLength(1);
  });

  it("answers for a client that answers by a call of its own, and withdraws nothing it was not asked", async () => {
    const { questions, responses } = adapter();
    const reader = standIn(["permission"], { readsEvents: true });
    questions.attach(reader.client);
    questions.onEvent(permission("p1"));
    reader.deliver();
    await settle();
    expect(responses).toEqual([]);
    expect(questions.answer("p1", { kind: "approve-once" })).toBeUndefined();
    expect(responses).toEqual([["p1", { kind: "approve-once" }]]);
    expect(questions.answer("p1", { kind: "deny" })).toMatch(/No question with id p1/);
  });

  it("gives the kind's unavailable answer when no client can answer it, or every client asked failed", async () => {
    const { questions, responses } = adapter();
    questions.onEvent(permission("nobody"));
    expect(responses).toEqual([["nobody", { kind: "deny", message: "The client could not be asked." }]]);

    const a = standIn(["user_input"], { fails: true });
    const b = standIn(["user_input"]);
    questions.attach(a.client);
    const detachB = questions.attach(b.client);
    questions.onEvent(userInput("q1"));
    a.deliver();
    b.deliver();
    await settle();
    // One client failed, the other may still answer.
    expect(responses).toHaveLength(1);
    b.asked[0]?.fail();
    await settle();
    expect(responses[1]).toEqual(["q1", { cancelled: true }]);

    // A detached client sees nothing more and is asked nothing.
    detachB();
    questions.onEvent(userInput("q2"));
    expect(b.seen.filter((type) => type === "user_input.requested")).toHaveLength(1);
    a.deliver();
    await settle();
    expect(responses[2]).toEqual(["q2", { cancelled: true }]);
  });

  it("lets a question lapse after the time limit, and stops the clock when it is answered", async () => {
    vi.useFakeTimers();
    const { questions, responses } = adapter(1_000);
    const reader = standIn(["permission", "external_tool"], { readsEvents: true });
    questions.attach(reader.client);
    questions.onEvent(permission("slow"));
    questions.onEvent(event("external_tool.requested", { requestId: "fast", sessionId: "s", toolCallId: "t", toolName: "x" }));
    questions.answer("fast", { content: "done" });
    vi.advanceTimersByTime(999);
    expect(responses).toEqual([["fast", { content: "done" }]]);
    vi.advanceTimersByTime(1);
    expect(responses[1]).toEqual(["slow", { kind: "deny", message: "The client did not answer the permission request in time." }]);
    expect(responses).toHaveLength(2);
  });

  it("puts the questions still open to a client that continues the work, but not a client tool's call (answered by RPC)", async () => {
    const { questions, responses } = adapter();
    const gone = standIn(["permission", "external_tool"], { readsEvents: true });
    const detach = questions.attach(gone.client);
    questions.onEvent(permission("p1"));
    questions.onEvent(event("external_tool.requested", { requestId: "x1", toolName: "lookup", toolCallId: "t1", arguments: {} }));
    detach();
    expect(questions.waiting).toBe(true);

    const next = standIn(["permission", "external_tool"]);
    questions.attach(next.client);
    questions.offer(next.client);
    next.deliver();
    await settle();
    expect(next.seen).toEqual(["permission.requested"]);
    expect(next.asked.map((entry) => entry.question.data.requestId)).toEqual(["p1"]);
    next.asked[0]?.answer({ kind: "approve-once" });
    await settle();
    expect(responses).toEqual([["p1", { kind: "approve-once" }]]);
    // The tool call stays open for the client's RPC.
    expect(questions.answer("x1", { content: "done" })).toBeUndefined();
  });
});
