/**
 * Every question the engine asks a person or a client goes through here: permission, ask_user, plan
 * approval, a client-implemented tool, an elicitation form. One shape for all: the asker names the kind and
 * the request, the broker emits `<kind>.requested`, waits for a `respond` command (or the abort signal),
 * emits `<kind>.completed`, and returns the reply. With nobody to answer it returns the kind's headless
 * reply at once (protocol/interactions.ts's one table of unanswered replies): a run without a person never
 * waits.
 */
import { randomUUID } from "../util/random-id.js";
import {
  interactionReplySchemas,
  unansweredReply,
  type Answer,
  type AnswerSource,
  type InteractionKind,
  type InteractionReplies,
  type InteractionRequests,
} from "../protocol/interactions.js";
import type { Emit } from "./event-sink.js";

interface Pending {
  kind: InteractionKind;
  emit: Emit;
  resolve(reply: InteractionReplies[InteractionKind], source: AnswerSource): void;
}

function completedData(kind: InteractionKind, requestId: string, reply: InteractionReplies[InteractionKind], source: AnswerSource) {
  switch (kind) {
    case "permission": {
      const answer = reply as InteractionReplies["permission"];
      return {
        type: "permission.completed" as const,
        data: {
          requestId,
          result:
            answer.kind === "deny"
              ? { kind: "denied-interactively-by-user" as const, ...(answer.message ? { message: answer.message } : {}) }
              : { kind: "approved" as const },
          // Released by a rule another answer gave while it waited, or answered.
          decisionSource: source === "rule" ? ("session_approval" as const) : ("human_response" as const),
        },
      };
    }
    case "user_input": {
      const answer = reply as InteractionReplies["user_input"];
      return {
        type: "user_input.completed" as const,
        data: { requestId, ...("answer" in answer ? { answer: answer.answer, wasFreeform: answer.wasFreeform ?? false } : {}) },
      };
    }
    case "exit_plan_mode":
      return { type: "exit_plan_mode.completed" as const, data: { requestId, ...(reply as InteractionReplies["exit_plan_mode"]) } };
    case "external_tool":
      return { type: "external_tool.completed" as const, data: { requestId } };
    case "elicitation":
      return { type: "elicitation.completed" as const, data: { requestId, ...(reply as InteractionReplies["elicitation"]) } };
  }
}

export interface InteractionBrokerOptions {
  /** Whether someone can answer this kind of question now (a person in the TUI, a client's handler). */
  canAnswer(kind: InteractionKind): boolean;
}

export class InteractionBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly options: InteractionBrokerOptions) {}

  canAnswer(kind: InteractionKind): boolean {
    return this.options.canAnswer(kind);
  }

  /**
   * Asks and waits. `emit` is the asker's: a subagent's question carries its agentId, so a face can name
   * the agent asking. `requestId`: the asker's id for the question, to `release` it later.
   */
  async ask<K extends InteractionKind>(
    kind: K,
    request: InteractionRequests[K],
    context: { emit: Emit; signal: AbortSignal; requestId?: string },
  ): Promise<Answer<K>> {
    if (!this.options.canAnswer(kind)) return { reply: unansweredReply(kind, "headless"), source: "headless" };
    if (context.signal.aborted) return { reply: unansweredReply(kind, "aborted"), source: "aborted" };
    const requestId = context.requestId ?? randomUUID();
    const answer = await new Promise<Answer<K>>((resolve) => {
      const onAbort = () => {
        this.pending.delete(requestId);
        resolve({ reply: unansweredReply(kind, "aborted"), source: "aborted" });
      };
      context.signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(requestId, {
        kind,
        emit: context.emit,
        resolve: (reply, source) => {
          context.signal.removeEventListener("abort", onAbort);
          this.pending.delete(requestId);
          resolve({ reply: reply as InteractionReplies[K], source });
        },
      });
      this.emitRequested(kind, requestId, request, context.emit);
    });
    const completed = completedData(kind, requestId, answer.reply, answer.source);
    context.emit(completed.type, completed.data as never);
    return answer;
  }

  private emitRequested<K extends InteractionKind>(kind: K, requestId: string, request: InteractionRequests[K], emit: Emit): void {
    // The `*.requested` event type is the kind's name; its data is the request plus the id.
    emit(`${kind}.requested` as "permission.requested", { requestId, ...(request as InteractionRequests["permission"]) });
  }

  /** The questions waiting for an answer, oldest first. */
  get pendingRequests(): { requestId: string; kind: InteractionKind }[] {
    return [...this.pending].map(([requestId, { kind }]) => ({ requestId, kind }));
  }

  /**
   * Answers a pending question. Returns an error message when there is no such question or the reply does
   * not fit its kind (a client may send anything); undefined when it was answered.
   */
  respond(requestId: string, reply: unknown): string | undefined {
    const pending = this.pending.get(requestId);
    if (!pending) return `No question with id ${requestId} is waiting for an answer.`;
    const parsed = interactionReplySchemas[pending.kind].safeParse(reply);
    if (!parsed.success) return `Not a valid answer to a ${pending.kind} request: ${parsed.error.issues.map((issue) => issue.message).join("; ")}`;
    pending.resolve(parsed.data, "person");
    return undefined;
  }

  /** Ends a pending question with this reply, given by a rule (an approval that now covers it); false when it no longer waits. */
  release<K extends InteractionKind>(requestId: string, kind: K, reply: InteractionReplies[K]): boolean {
    const pending = this.pending.get(requestId);
    if (!pending || pending.kind !== kind) return false;
    pending.resolve(reply, "rule");
    return true;
  }

  /** Ends every pending question as interrupted (the session is closing). */
  cancelAll(): void {
    for (const [requestId, pending] of [...this.pending]) {
      this.pending.delete(requestId);
      pending.resolve(unansweredReply(pending.kind, "aborted"), "aborted");
    }
  }
}
