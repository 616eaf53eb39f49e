/**
 * The engine's questions put to remote clients (the SDK server's clients, an ACP editor), decided in one
 * place: which clients are asked, when, for how long, what the engine is told when nobody answers, and when
 * a question is withdrawn. The servers only put a question on their wire and read the answer off it.
 *
 * Any number of clients may be attached to one session. Each sees every event, in order. A question goes to
 * every client able to answer its kind, once the events before it have reached that client; the first answer
 * wins, and the others are withdrawn when the engine says the question is over (its `*.completed` event:
 * answered, lapsed, or the turn ended first). A question lapses after the time limit; when no client could
 * be asked at all (no handler, an error, gone) the engine gets the kind's "unavailable" answer at once.
 */
import type { SessionEvent } from "../protocol/events/index.js";
import { unansweredReply, type InteractionKind, type InteractionReply } from "../protocol/interactions.js";

/** A question as the engine asked it: its `*.requested` event. */
export type RemoteQuestion = Extract<SessionEvent, { type: `${InteractionKind}.requested` }>;

export interface QuestionClient {
  /** Whether this client can answer this kind of question now (it said it can, and it is still there). */
  canAnswer(kind: InteractionKind): boolean;
  /** Sends one event to the client, after every earlier one. */
  deliver(event: SessionEvent): void;
  /** Resolves once what `deliver` was given so far has reached the client (without it: at once). */
  delivered?(): Promise<void>;
  /**
   * Puts a question to the client. Resolves with its answer, or with undefined when the client answers by a
   * call of its own (`RemoteQuestions.answer`, after reading the event); rejects when it could not be asked.
   * `signal` aborts when the question is over: the client is told to stop asking.
   */
  ask(question: RemoteQuestion, signal: AbortSignal): Promise<InteractionReply | undefined>;
}

export interface RemoteQuestionsOptions {
  /** Hands an answer to the engine (the `respond` command); an error message when no such question waits. */
  respond(requestId: string, reply: InteractionReply): string | undefined;
  /** How long a question may wait before it lapses; without it, until the turn ends. */
  timeoutMs?: number;
}

const KINDS: Partial<Record<string, InteractionKind>> = {
  "permission.requested": "permission",
  "user_input.requested": "user_input",
  "exit_plan_mode.requested": "exit_plan_mode",
  "external_tool.requested": "external_tool",
  "elicitation.requested": "elicitation",
};

const COMPLETED = new Set(["permission.completed", "user_input.completed", "exit_plan_mode.completed", "external_tool.completed", "elicitation.completed"]);

interface OpenQuestion {
  question: RemoteQuestion;
  /** Aborts when the question is over, withdrawing it from every client still asking. */
  controller: AbortController;
  timer?: NodeJS.Timeout;
}

export class RemoteQuestions {
  private readonly clients = new Set<QuestionClient>();
  private readonly open = new Map<string, OpenQuestion>();

  constructor(private readonly options: RemoteQuestionsOptions) {}

  /** Adds a client: it sees every event from now on and is asked what it can answer. Returns its detach. */
  attach(client: QuestionClient): () => void {
    this.clients.add(client);
    return () => void this.clients.delete(client);
  }

  /** The interaction broker's question: can any attached client answer this kind now? */
  readonly canAnswer = (kind: InteractionKind): boolean => [...this.clients].some((client) => client.canAnswer(kind));

  /** Every event of the session: delivered to each client, then, if it asks or ends a question, acted on. */
  readonly onEvent = (event: SessionEvent): void => {
    for (const client of this.clients) client.deliver(event);
    const kind = KINDS[event.type];
    if (kind) this.put(kind, event as RemoteQuestion);
    else if (COMPLETED.has(event.type)) this.close((event.data as { requestId: string }).requestId);
  };

  /** A client's answer by a call of its own; an error message when no such question waits. */
  answer(requestId: string, reply: InteractionReply): string | undefined {
    return this.settle(requestId, reply);
  }

  /** The questions of this kind still waiting for a client, oldest first (a client attaching late shows them). */
  pending<K extends InteractionKind>(kind: K): Extract<RemoteQuestion, { type: `${K}.requested` }>[] {
    return [...this.open.values()]
      .map((entry) => entry.question)
      .filter((question): question is Extract<RemoteQuestion, { type: `${K}.requested` }> => question.type === `${kind}.requested`);
  }

  /** Whether some question still waits for an answer. */
  get waiting(): boolean {
    return this.open.size > 0;
  }

  /** Withdraws every open question (the session is going away). */
  dispose(): void {
    for (const requestId of [...this.open.keys()]) this.close(requestId);
  }

  private put(kind: InteractionKind, question: RemoteQuestion): void {
    const { requestId } = question.data;
    const asked = [...this.clients].filter((client) => client.canAnswer(kind));
    if (asked.length === 0) {
      this.options.respond(requestId, unansweredReply(kind, "unavailable"));
      return;
    }
    const entry: OpenQuestion = { question, controller: new AbortController() };
    this.open.set(requestId, entry);
    const { timeoutMs } = this.options;
    if (timeoutMs !== undefined) entry.timer = setTimeout(() => this.settle(requestId, unansweredReply(kind, "lapsed")), timeoutMs).unref();
    let failed = 0;
    for (const client of asked) {
      this.ask(client, entry, () => {
        if (++failed === asked.length && !entry.controller.signal.aborted) this.settle(requestId, unansweredReply(kind, "unavailable"));
      });
    }
  }

  /**
   * A client that has just attached to continue the work left waiting (the SDK's continuePendingWork) is put the
   * questions still open, as if it had been there when they were asked. Not a client tool's call: the client
   * answers that by RPC with the request id it has, and must not run its tool a second time.
   */
  offer(client: QuestionClient): void {
    for (const entry of this.open.values()) {
      const kind = KINDS[entry.question.type];
      if (!kind || kind === "external_tool") continue;
      client.deliver(entry.question);
      // Another client may still answer: this one failing to be asked settles nothing.
      if (client.canAnswer(kind)) this.ask(client, entry, () => undefined);
    }
  }

  private ask(client: QuestionClient, entry: OpenQuestion, failed: () => void): void {
    const { question } = entry;
    const { signal } = entry.controller;
    // After the events before it: the client has seen the tool call it is asked about.
    void (client.delivered?.() ?? Promise.resolve())
      .then(() => (signal.aborted ? undefined : client.ask(question, signal)))
      .then((reply) => {
        if (reply && !signal.aborted) this.settle(question.data.requestId, reply);
      }, failed);
  }

  /** Hands the answer to the engine; the question closes when the engine says it is over (`*.completed`). */
  private settle(requestId: string, reply: InteractionReply): string | undefined {
    const entry = this.open.get(requestId);
    if (entry?.timer) clearTimeout(entry.timer);
    const problem = this.options.respond(requestId, reply);
    // No such question in the engine (it ended already): nothing will close it but this.
    if (problem !== undefined) this.close(requestId);
    return problem;
  }

  private close(requestId: string): void {
    const entry = this.open.get(requestId);
    if (!entry) return;
    this.open.delete(requestId);
    if (entry.timer) clearTimeout(entry.timer);
    entry.controller.abort();
  }
}
