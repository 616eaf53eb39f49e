/**
 * One ACP session over one engine session: the engine's events go out as `session/update`s (in order, and all
 * of a prompt's before its answer), its questions go to the client through the shared adapter
 * (core/remote-questions.ts, in ACP's words by client-questions.ts), and a prompt is a typed line dispatched
 * to the engine. No loop, no queue of its own: the engine's.
 */
import {
  RequestError,
  type AgentContext,
  type ContentBlock,
  type SessionConfigOption,
  type SessionUpdate,
  type StopReason,
  type ToolCallContent,
} from "@agentclientprotocol/sdk";
import { RemoteQuestions } from "../core/remote-questions.js";
import type { SessionView } from "../core/session-view.js";
import type { RunResult } from "../protocol/commands.js";
import type { SessionEvent } from "../protocol/events/index.js";
import type { InteractionKind } from "../protocol/interactions.js";
import { acpCanAnswer, askEditor } from "./client-questions.js";
import { UpdateTranslator } from "./event-updates.js";
import { planUpdate, todosOf, type Todo } from "./plan-updates.js";
import { listModels, modelOption } from "./model-option.js";
import { promptInput, type SaveImage } from "./prompt-content.js";

export interface AcpSessionOptions {
  client: AgentContext;
  session: SessionView;
  saveImage: SaveImage;
  /** The kinds of question the editor can answer; without it, what every editor answers (permissions, the plan review). */
  canAnswer?(kind: InteractionKind): boolean;
  /** Where failures nobody asked about go (stderr). */
  log(message: string): void;
  /** Aborts when the client has gone: updates it misses then are no failure worth a line on stderr. */
  disconnected?: AbortSignal;
}

/** How a run ended, in ACP's words. */
export function stopReasonOf(result: RunResult, finishReason: string | undefined): StopReason {
  switch (result.outcome) {
    case "aborted":
      return "cancelled";
    case "max_continues":
      return "max_turn_requests";
    case "completed":
    case "task_complete":
      if (finishReason === "content_filter") return "refusal";
      if (finishReason === "length") return "max_tokens";
      return "end_turn";
    case "error":
      // Cut by the output limit again and again: ACP has a word for that.
      if (result.error?.kind === "output_limit") return "max_tokens";
      throw RequestError.internalError({ kind: result.error?.kind }, result.error?.message ?? "The model call failed.");
  }
}

export class AcpSession {
  private readonly translator: UpdateTranslator;
  private sending: Promise<void> = Promise.resolve();
  /** Todo lists being read for the plan, in order. */
  private planning: Promise<void> = Promise.resolve();
  private lastPlan: string | undefined;
  private readonly unsubscribe: () => void;
  private readonly questions: RemoteQuestions;
  private updateFailed = false;
  /** The endpoint's models, once listed. */
  private models: string[] = [];
  /** The client terminals that show a tool call's command, by call. */
  private readonly terminals = new Map<string, ToolCallContent>();

  constructor(private readonly options: AcpSessionOptions) {
    this.translator = new UpdateTranslator({ cwd: options.session.cwd });
    this.questions = new RemoteQuestions({ respond: (requestId, reply) => options.session.dispatch({ type: "respond", requestId, reply }) });
    const editor = {
      client: options.client,
      sessionId: options.session.id,
      log: options.log,
      lastCallNamed: (name: string) => this.translator.lastCallNamed(name),
    };
    this.questions.attach({
      canAnswer: options.canAnswer ?? ((kind) => acpCanAnswer(undefined, kind)),
      deliver: (event) => this.onEvent(event),
      // Asked after the updates before it: the client has seen the tool call it is asked about.
      delivered: () => this.sending,
      ask: (question, signal) => askEditor(editor, question, signal),
    });
    this.unsubscribe = options.session.subscribe(this.questions.onEvent);
  }

  get id(): string {
    return this.options.session.id;
  }

  /** Sends an update after every one before it. */
  update(update: SessionUpdate): void {
    const { client, log } = this.options;
    if (update.sessionUpdate === "tool_call_update") update = this.keepTerminal(update);
    this.sending = this.sending
      .then(() => client.notify("session/update", { sessionId: this.id, update }))
      .catch((error: unknown) => {
        // Once the client is gone every update fails: say so once, and not at all when it hung up (a normal end).
        if (!this.updateFailed && this.options.disconnected?.aborted !== true) log(`session/update failed: ${(error as Error).message}`);
        this.updateFailed = true;
      });
  }

  /**
   * A command run in the client's terminal: the terminal stays in the call's content when the result comes
   * (an update's content replaces the call's), so the editor keeps showing the command's output.
   */
  private keepTerminal(update: Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>): SessionUpdate {
    const terminal = update.content?.find((content) => content.type === "terminal");
    if (terminal) {
      this.terminals.set(update.toolCallId, terminal);
      return update;
    }
    const shown = this.terminals.get(update.toolCallId);
    if (!shown || !update.content) return update;
    if (update.status === "completed" || update.status === "failed") this.terminals.delete(update.toolCallId);
    return { ...update, content: [shown, ...update.content] };
  }

  /** The model picker's state: the current model and, once the endpoint has listed them, the others. */
  configOptions(): SessionConfigOption[] {
    return [modelOption(this.options.session.model, this.models)];
  }

  /** Asks the endpoint for its models and tells the client when they are known. */
  announceModels(): void {
    void listModels(this.options.session).then((models) => {
      this.models = models;
      if (models.length > 0) this.update({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
    });
  }

  /** Resolves once every update queued so far has been written (plans still being read included). */
  flush(): Promise<void> {
    return this.planning.then(() => this.sending);
  }

  /**
   * Reads the todo list and sends it as the plan, in the order the changes came (reads are chained, so an
   * older list never follows a newer one); the same list twice in a row goes out once.
   */
  private sendPlan(fallback: Todo[] | undefined, skipEmpty: boolean): void {
    this.planning = this.planning.then(async () => {
      const todos = (await todosOf(this.options.session)) ?? fallback;
      if (!todos || (skipEmpty && todos.length === 0)) return;
      const update = planUpdate(todos);
      const key = JSON.stringify(update);
      if (key === this.lastPlan) return;
      this.lastPlan = key;
      this.update(update);
    });
  }

  /** A loaded session's past, told as updates (the log's own translator: it sends the user's messages too). */
  replay(history: readonly SessionEvent[]): Promise<void> {
    const translator = new UpdateTranslator({ cwd: this.options.session.cwd, replay: true });
    for (const event of history) for (const update of translator.translate(event)) this.update(update);
    this.sendPlan(undefined, true);
    return this.flush();
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    const { session, saveImage } = this.options;
    const input = promptInput(blocks, saveImage);
    this.translator.lastFinishReason = undefined;
    const routed = await session.dispatch({ type: "input", text: input.text, ...(input.attachments.length > 0 ? { attachments: input.attachments } : {}) });
    try {
      switch (routed.kind) {
        case "prompt":
          return stopReasonOf(await routed.run, this.translator.lastFinishReason);
        case "dialog":
          this.say(`/${routed.dialog} needs the terminal UI (run agent in a terminal).`);
          return "end_turn";
        case "new-session":
          this.say("Start a new session from the editor to begin afresh.");
          return "end_turn";
        case "switch-session":
          this.say(`${routed.note} Load session ${routed.sessionId} from the editor to go on there.`);
          return "end_turn";
        case "exit":
          this.say("Close the session from the editor to end it.");
          return "end_turn";
        case "show":
          this.say(`${routed.title}\n\n${routed.text}`);
          return "end_turn";
        case "diff":
          this.say(routed.patch === "" ? routed.summary : `${routed.summary}\n\n\`\`\`diff\n${routed.patch}\n\`\`\``);
          return "end_turn";
        case "copy":
          // The editor owns its clipboard; the text is shown so it can be copied from there.
          this.say(routed.text);
          return "end_turn";
        case "edit":
          this.say(`${routed.title}: ${routed.path}`);
          return "end_turn";
        case "done":
        case "unknown-command":
          return "end_turn";
      }
    } finally {
      await this.flush();
    }
  }

  cancel(): void {
    this.options.session.dispatch({ type: "interrupt" });
  }

  close(): void {
    this.unsubscribe();
    this.questions.dispose();
  }

  private say(text: string): void {
    this.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  }

  private onEvent(event: SessionEvent): void {
    for (const update of this.translator.translate(event)) this.update(update);
    if (event.type === "session.model_change") this.update({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
    // The todo store's event (when the engine has one): the whole list goes out as the plan.
    if ((event.type as string) === "session.todos_changed") this.sendPlan((event.data as { todos?: Todo[] }).todos, false);
  }
}
