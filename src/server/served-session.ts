/**
 * One session as its clients see it: several clients may hold it (a second client's resume attaches
 * it). Each gets every event as a `session.event` notification (in order, the engine's envelope as it is);
 * the engine's questions go to them through the shared adapter (core/remote-questions.ts), which decides who
 * is asked, the time limit, the answer when nobody can answer and the withdrawal. This file only speaks the
 * SDK's wire: questions the SDK answers from the event itself (permission, client tools, forms) wait for its
 * RPC; ask_user and plan approval are the SDK's own requests (`userInput.request`, `exitPlanMode.request`).
 */
import { randomUUID } from "../util/random-id.js";
import { CancellationTokenSource, type MessageConnection } from "vscode-jsonrpc";
import { RemoteQuestions, type QuestionClient, type RemoteQuestion, type SessionView } from "../core/index.js";
import type { SessionEvent } from "../protocol/events/index.js";
import type { InteractionKind, InteractionReply } from "../protocol/interactions.js";
import { DeltaBatcher } from "./delta-batcher.js";
import { EventJournal } from "./event-journal.js";
import type { SessionModels } from "./session-models.js";
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

/** A slash command a client runs itself (the SDK's `commands`). */
export interface ClientCommand {
  name: string;
  description?: string;
}

/** Sent only to a client that asked for streaming (the real runtime's `streaming` switch). */
const STREAMED = new Set<string>(["assistant.message_delta", "assistant.reasoning_delta", "assistant.streaming_delta"]);

/** One client holding the session. */
class AttachedClient implements QuestionClient {
  /** Who brought what to the engine's session (its tools: join_client, leave_client). */
  readonly id = randomUUID();
  private readonly outgoing = new DeltaBatcher((event) => {
    if (this.link.alive) void this.link.connection.sendNotification("session.event", { sessionId: this.sessionId, event }).catch(() => undefined);
  });

  constructor(
    private readonly sessionId: string,
    readonly link: ClientLink,
    public abilities: ClientAbilities,
    public commands: readonly ClientCommand[] = [],
  ) {}

  canAnswer(kind: InteractionKind): boolean {
    if (!this.link.alive) return false;
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
  }

  deliver(event: SessionEvent): void {
    if (!this.link.alive) return;
    if (STREAMED.has(event.type) && (!this.abilities.streaming || (event.agentId !== undefined && !this.abilities.subagentStreaming))) return;
    this.outgoing.push(forClient(event));
  }

  /** ask_user and the plan review are requests to the client; the rest it reads off the event and answers by RPC. */
  async ask(question: RemoteQuestion, signal: AbortSignal): Promise<InteractionReply | undefined> {
    if (question.type === "user_input.requested") {
      const { question: text, choices, allowFreeform } = question.data;
      const asked = { sessionId: this.sessionId, question: text, choices, allowFreeform: allowFreeform ?? true };
      return userInputReply(await this.request("userInput.request", asked, signal));
    }
    if (question.type === "exit_plan_mode.requested") {
      const { summary, planContent, actions, recommendedAction } = question.data;
      return planReply(await this.request("exitPlanMode.request", { sessionId: this.sessionId, summary, planContent, actions, recommendedAction }, signal));
    }
    return undefined;
  }

  /** A request to the client; `$/cancelRequest` tells it to stop asking its user when the question is over. */
  private async request(method: string, params: object, signal: AbortSignal): Promise<unknown> {
    const cancel = new CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await this.link.connection.sendRequest(method, params, cancel.token);
    } finally {
      signal.removeEventListener("abort", onAbort);
      cancel.dispose();
    }
  }
}

export class ServedSession {
  /** The session's models (its registry, which session.provider.add extends). */
  models: SessionModels | undefined;
  /** The reasoning effort of the last model change (what session.model.getCurrent reports). */
  reasoningEffort: string | undefined;
  /** What session.eventLog.read pages through. */
  readonly journal = new EventJournal();
  /** The event types clients registered interest in (session.eventLog.registerInterest), by handle. */
  readonly interests = new Map<string, string>();
  private readonly questions: RemoteQuestions;
  /** The clients holding it, in the order they came, each with its way off. */
  private readonly attached = new Map<ClientLink, { client: AttachedClient; detach: () => void }>();
  /** What the clients were last told of the commands and capabilities the clients bring. */
  private announced = { commands: "[]", elicitation: false };
  /** Requests this face itself put to one client (a client command, a direct elicitation), by request id. */
  private readonly toClients = new Map<string, (answer: unknown) => void>();
  /** The last client to let go: a session that closes as it leaves still asks it its sessionEnd hooks (as Copilot does). */
  private departed: ClientLink | undefined;

  constructor(
    readonly id: string,
    link: ClientLink,
    abilities: ClientAbilities,
    private readonly questionTimeoutMs: number,
    /** The session manager's session by id (the manager holds it; events flow before it is there: session.start, session.resume). */
    private readonly lookup: (id: string) => SessionView | undefined,
    commands?: readonly ClientCommand[],
  ) {
    this.questions = new RemoteQuestions({
      // (The engine's undefined is "taken": only a session that is gone is an error here.)
      respond: (requestId, reply) => {
        const session = this.session;
        return session ? session.dispatch({ type: "respond", requestId, reply }) : "The session is not open.";
      },
      timeoutMs: questionTimeoutMs,
    });
    this.attach(link, abilities, commands);
  }

  /** The engine's session, once opened and until it is closed. */
  get session(): SessionView | undefined {
    return this.lookup(this.id);
  }

  /** A client holds the session from now on (again, with what it says now it can answer). */
  attach(link: ClientLink, abilities: ClientAbilities, commands?: readonly ClientCommand[]): void {
    this.announceChanges(() => {
      const held = this.attached.get(link);
      if (held) {
        held.client.abilities = abilities;
        if (commands) held.client.commands = commands;
        return;
      }
      const client = new AttachedClient(this.id, link, abilities, commands);
      this.attached.set(link, { client, detach: this.questions.attach(client) });
    });
  }

  /** The client lets go (what it brought to the session with it); true when no client still there holds the session. */
  detach(link: ClientLink): boolean {
    const held = this.attached.get(link);
    this.announceChanges(() => {
      held?.detach();
      this.attached.delete(link);
      this.departed = link;
    });
    if (held) this.session?.dispatch({ type: "leave_client", client: held.client.id });
    return !this.heldByOthers(link);
  }

  /** Whether some client still there holds the session. */
  get held(): boolean {
    return [...this.attached.keys()].some((link) => link.alive);
  }

  /** Whether a client other than this one, still there, holds the session. */
  heldByOthers(link: ClientLink): boolean {
    return [...this.attached.keys()].some((held) => held !== link && held.alive);
  }

  /** The id the engine knows the client by (join_client), once it holds the session. */
  clientId(link: ClientLink): string | undefined {
    return this.attached.get(link)?.client.id;
  }

  /** Whether a question (a permission, a client tool's call…) still waits for a client's answer. */
  get waiting(): boolean {
    return this.questions.waiting;
  }

  /** The client continues the work left waiting: it is put the questions still open (continuePendingWork). */
  offerPending(link: ClientLink): void {
    const held = this.attached.get(link);
    if (held) this.questions.offer(held.client);
  }

  /** Whether some client still there can answer a form (the session's `capabilities.ui.elicitation`). */
  get elicitation(): boolean {
    return this.questions.canAnswer("elicitation");
  }

  /** Every client's own commands, with the client that runs each. */
  clientCommands(): (ClientCommand & { link: ClientLink })[] {
    return [...this.attached.values()]
      .filter(({ client }) => client.link.alive)
      .flatMap(({ client }) => client.commands.map((command) => ({ ...command, link: client.link })));
  }

  /**
   * What the clients see of who is there changes (a client with commands or a form handler comes or goes):
   * they are told as Copilot tells them (commands.changed, capabilities.changed), as ephemeral session events.
   */
  private announceChanges(change: () => void): void {
    change();
    const commands = this.clientCommands().map(({ name, description }) => ({ name, ...(description !== undefined ? { description } : {}) }));
    const listed = JSON.stringify(commands);
    if (listed !== this.announced.commands) this.broadcast("commands.changed", { commands });
    // Compared with what was last told: a client that dropped is no longer "alive" by the time it is detached.
    if (this.elicitation !== this.announced.elicitation) this.broadcast("capabilities.changed", { ui: { elicitation: this.elicitation } });
    this.announced = { commands: listed, elicitation: this.elicitation };
  }

  /** An event of this face (not of the engine's log) to every client holding the session. */
  private broadcast(type: string, data: object, only?: ClientLink): void {
    const event = { id: randomUUID(), timestamp: new Date().toISOString(), parentId: null, ephemeral: true, type, data } as unknown as SessionEvent;
    for (const { client } of this.attached.values()) if (!only || client.link === only) client.deliver(event);
  }

  /**
   * Puts a request to one client as the SDK reads it off an event (command.execute, elicitation.requested),
   * and waits for its answer by RPC (`settle`); undefined when the time for questions ran out.
   */
  async askClient(link: ClientLink | undefined, type: "command.execute" | "elicitation.requested", data: object): Promise<unknown> {
    const requestId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const answer = new Promise<unknown>((resolve) => {
      this.toClients.set(requestId, resolve);
      timer = setTimeout(() => resolve(undefined), this.questionTimeoutMs).unref();
    });
    this.broadcast(type, { requestId, ...data }, link);
    try {
      return await answer;
    } finally {
      clearTimeout(timer);
      this.toClients.delete(requestId);
    }
  }

  /** A client's answer to a request of askClient; false when none such waits. */
  settle(requestId: string, answer: unknown): boolean {
    const resolve = this.toClients.get(requestId);
    resolve?.(answer);
    return resolve !== undefined;
  }

  holds(link: ClientLink): boolean {
    return this.attached.has(link);
  }

  /**
   * The client whose callbacks (hooks, system-message transforms) the session uses: the one that has held it
   * longest and is still there.
   */
  private get owner(): ClientLink | undefined {
    return [...this.attached.keys()].find((link) => link.alive) ?? (this.departed?.alive ? this.departed : undefined);
  }

  /** The interaction broker's question: can any client answer this kind now? */
  readonly canAnswer = (kind: InteractionKind): boolean => this.questions.canAnswer(kind);

  /** Some client listens for this event type: Copilot switches behaviour on it (command.queued: queued commands are the client's). */
  interestedIn(eventType: string): boolean {
    for (const type of this.interests.values()) if (type === eventType) return true;
    return false;
  }

  readonly onEvent = (event: SessionEvent): void => {
    if (event.type === "session.model_change" || event.type === "session.start") this.reasoningEffort = event.data.reasoningEffort;
    this.journal.push(event);
    this.questions.onEvent(event);
  };

  /** A hook the client answers (`hooks.invoke`): its `output`, or nothing when the client is gone. */
  async invokeHook(hookType: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const link = this.owner;
    if (!link || signal?.aborted) return undefined;
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

  /** A bearer token from the client's bearerTokenProvider for one of the session's providers (asked per request). */
  async providerToken(providerName: string): Promise<string> {
    const link = this.owner;
    if (!link) throw new Error("no client is connected");
    const answer = (await link.connection.sendRequest("providerToken.getToken", { sessionId: this.id, providerName })) as { token?: unknown } | null;
    if (typeof answer?.token !== "string") throw new Error("the client's answer has no token");
    return answer.token;
  }

  /** The client's transform callbacks rewrite these sections (`systemMessage.transform`); nothing when it cannot answer. */
  async transformSystemMessage(sections: Record<string, { content: string }>): Promise<Record<string, { content: string }> | undefined> {
    const link = this.owner;
    if (!link) return undefined;
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

  /** The permission questions still waiting for an answer (session.permissions.pendingRequests). */
  pendingPermissions(): { requestId: string; request: unknown }[] {
    return this.questions.pending("permission").map((question) => ({ requestId: question.data.requestId, request: question.data.permissionRequest }));
  }

  /** The client says whether it answers permission questions from now on (session.permissions.setRequired). */
  answersPermissions(link: ClientLink, on: boolean): void {
    const held = this.attached.get(link);
    if (held) held.client.abilities = { ...held.client.abilities, requestPermission: on };
  }

  /** Hands a client's answer (its RPC) to the engine; an error message when no such question waits. */
  answer(requestId: string, reply: InteractionReply): string | undefined {
    if (this.settle(requestId, reply)) return undefined;
    return this.questions.answer(requestId, reply);
  }

  /** Every question still out is withdrawn. */
  dispose(): void {
    for (const resolve of this.toClients.values()) resolve(undefined);
    this.questions.dispose();
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
