/**
 * One session as a client sees it: its events go out as `session.event` notifications (in order, the
 * engine's envelope as it is), and the engine's questions go to the client. Questions the SDK answers from
 * the event itself (permission, client tools, forms) wait for its RPC; ask_user and plan approval are the
 * SDK's own requests (`userInput.request`, `exitPlanMode.request`). Every question has a time limit, and a
 * kind the client has no handler for gets the engine's headless answer (a permission is denied).
 */
import { CancellationTokenSource, type MessageConnection } from "vscode-jsonrpc";
import type { SessionView } from "../core/index.js";
import type { SessionEvent } from "../protocol/events/index.js";
import type { InteractionKind, InteractionReply } from "../protocol/interactions.js";
import { DeltaBatcher } from "./delta-batcher.js";
import { planReply, userInputReply } from "./replies.js";

/** One client connection, as its sessions see it. */
export interface ClientLink {
  readonly connection: MessageConnection;
  alive: boolean;
}

/** What the client said it can answer, and whether it wants the streamed deltas. */
export interface ClientAbilities {
  streaming: boolean;
  /** Subagents' deltas too (the SDK's includeSubAgentStreamingEvents, on unless turned off). */
  subagentStreaming: boolean;
  requestPermission: boolean;
  requestUserInput: boolean;
  requestElicitation: boolean;
  requestExitPlanMode: boolean;
}

/** Sent only to a client that asked for streaming (the real runtime's `streaming` switch). */
const STREAMED = new Set<string>(["assistant.message_delta", "assistant.reasoning_delta", "assistant.streaming_delta"]);

/** What the engine is told when the client lets a question lapse. */
const LAPSED: Record<InteractionKind, InteractionReply> = {
  permission: { kind: "deny", message: "The client did not answer the permission request in time." },
  user_input: { cancelled: true },
  exit_plan_mode: { approved: false },
  external_tool: { content: "The client did not run the tool in time.", success: false },
  elicitation: { action: "cancel" },
};

const REQUESTED: Partial<Record<string, InteractionKind>> = {
  "permission.requested": "permission",
  "external_tool.requested": "external_tool",
  "elicitation.requested": "elicitation",
  "user_input.requested": "user_input",
  "exit_plan_mode.requested": "exit_plan_mode",
};

export class ServedSession {
  /** Set once the engine has opened it (events flow before that: session.start, session.resume). */
  session: SessionView | undefined;
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Our own requests to the client still out (userInput.request, exitPlanMode.request), by the question's id. */
  private readonly asked = new Map<string, CancellationTokenSource>();
  private readonly outgoing = new DeltaBatcher((event) => {
    if (this.client.alive) void this.client.connection.sendNotification("session.event", { sessionId: this.id, event }).catch(() => undefined);
  });

  constructor(
    readonly id: string,
    public client: ClientLink,
    public abilities: ClientAbilities,
    private readonly questionTimeoutMs: number,
  ) {}

  /** The interaction broker's question: can anyone answer this kind now? */
  readonly canAnswer = (kind: InteractionKind): boolean => {
    if (!this.client.alive) return false;
    switch (kind) {
      case "permission":
        return this.abilities.requestPermission;
      case "user_input":
        return this.abilities.requestUserInput;
      case "elicitation":
        return this.abilities.requestElicitation;
      case "exit_plan_mode":
        return this.abilities.requestExitPlanMode;
      case "external_tool":
        return true;
    }
  };

  readonly onEvent = (event: SessionEvent): void => {
    const link = this.client;
    if (!link.alive) return;
    if (event.type.endsWith(".completed")) {
      // Answered, lapsed or ended with the turn (an abort): the client's request, if one is still out, is withdrawn.
      const { requestId } = event.data as { requestId?: string };
      this.clearTimer(requestId);
      this.withdraw(requestId);
    }
    if (STREAMED.has(event.type) && (!this.abilities.streaming || (event.agentId !== undefined && !this.abilities.subagentStreaming))) return;
    this.outgoing.push(forClient(event));
    const kind = REQUESTED[event.type];
    if (!kind) return;
    const requestId = (event.data as { requestId: string }).requestId;
    this.timers.set(requestId, setTimeout(() => this.answer(requestId, LAPSED[kind]), this.questionTimeoutMs).unref());
    if (event.type === "user_input.requested") {
      const { question, choices, allowFreeform } = event.data;
      this.askClient(link, requestId, "userInput.request", { sessionId: this.id, question, choices, allowFreeform: allowFreeform ?? true }, userInputReply);
    } else if (event.type === "exit_plan_mode.requested") {
      const { summary, planContent, actions, recommendedAction } = event.data;
      this.askClient(link, requestId, "exitPlanMode.request", { sessionId: this.id, summary, planContent, actions, recommendedAction }, planReply);
    }
  };

  /** A hook the client answers (`hooks.invoke`): its `output`, or nothing when the client is gone. */
  async invokeHook(hookType: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const link = this.client;
    if (!link.alive || signal?.aborted) return undefined;
    // An interrupted turn does not wait for the hook (the runner races the signal); the client is told to stop.
    const cancel = new CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const answer = (await link.connection.sendRequest("hooks.invoke", { sessionId: this.id, hookType, input }, cancel.token)) as { output?: unknown } | null;
      return answer?.output;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      cancel.dispose();
    }
  }

  /** The client's transform callbacks rewrite these sections (`systemMessage.transform`); nothing when it cannot answer. */
  async transformSystemMessage(sections: Record<string, { content: string }>): Promise<Record<string, { content: string }> | undefined> {
    const link = this.client;
    if (!link.alive) return undefined;
    // Bounded like a question: a callback that never returns must not hold the first turn (the parts stay as they were).
    // (vscode-jsonrpc only tells the client of a cancel; the wait itself ends here.)
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    const lapsed = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => {
        cancel.cancel();
        resolve(undefined);
      }, this.questionTimeoutMs).unref();
    });
    try {
      const asked = link.connection.sendRequest("systemMessage.transform", { sessionId: this.id, sections }, cancel.token) as Promise<{
        sections?: unknown;
      } | null>;
      const answer = await Promise.race([asked, lapsed]);
      return answer?.sections && typeof answer.sections === "object" ? (answer.sections as Record<string, { content: string }>) : undefined;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
      cancel.dispose();
    }
  }

  /** Hands the client's answer to the engine; an error message when no such question waits. */
  answer(requestId: string, reply: InteractionReply): string | undefined {
    this.clearTimer(requestId);
    return this.session?.dispatch({ type: "respond", requestId, reply }) ?? "The session is not open.";
  }

  private askClient(link: ClientLink, requestId: string, method: string, params: object, read: (result: unknown) => InteractionReply): void {
    const cancel = new CancellationTokenSource();
    this.asked.set(requestId, cancel);
    const settle = (result: unknown) => {
      // A late answer to a question that already ended (the turn was interrupted, it lapsed) is dropped here.
      if (this.asked.get(requestId) !== cancel) return;
      this.asked.delete(requestId);
      cancel.dispose();
      this.answer(requestId, read(result));
    };
    link.connection.sendRequest(method, params, cancel.token).then(
      settle,
      // No handler, a handler that threw, or the client went away: the question ends unanswered.
      () => settle(undefined),
    );
  }

  /** The question ended without the client's answer: `$/cancelRequest` tells the client to stop asking its user. */
  private withdraw(requestId: string | undefined): void {
    const cancel = requestId === undefined ? undefined : this.asked.get(requestId);
    if (!cancel || requestId === undefined) return;
    this.asked.delete(requestId);
    cancel.cancel();
    cancel.dispose();
  }

  private clearTimer(requestId: string | undefined): void {
    if (requestId === undefined) return;
    const timer = this.timers.get(requestId);
    if (timer) clearTimeout(timer);
    this.timers.delete(requestId);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const requestId of [...this.asked.keys()]) this.withdraw(requestId);
  }
}

/**
 * The event as the client gets it. One change: the SDK's sendAndWait ignores a `session.idle` marked
 * autopilot (the real runtime sends more idles while autopilot continues); this engine's idle comes once,
 * when the whole run is over, so it is sent without the mark.
 */
function forClient(event: SessionEvent): SessionEvent {
  if (event.type !== "session.idle" || event.data.mode !== "autopilot") return event;
  const { mode: _autopilot, ...data } = event.data;
  return { ...event, data };
}
