/**
 * One agent's runtime: its conversation, its prompt queue and steering, its abort, and the loop run for each
 * prompt. The main agent of a session and every subagent are runtimes of this one class, so there is one
 * loop and one queue however many agents run; what differs (system prompt, tools, mode, how a user
 * message is dressed) comes in through the options. What each prompt runs with is put together in
 * prompt-context.ts, and how a prompt ends (the mode, stop hooks) is prompt-run.ts's.
 */
import type { CompactResult, RunResult } from "../../protocol/commands.js";
import type { EventData } from "../../protocol/events/index.js";
import type { RetryPolicy } from "../../provider/retry.js";
import type { ChatProvider } from "../../provider/types.js";
import type { Compactor } from "../compaction/compactor.js";
import type { Conversation } from "../conversation.js";
import type { Emit } from "../event-sink.js";
import type { ModePreset } from "../modes.js";
import { runPromptToStop } from "../prompt-run.js";
import { promptContext } from "./prompt-context.js";
import type { ToolRunEnvironment } from "../tool-runner.js";
import type { ToolSet } from "../tool-set.js";
import { PromptQueue, type PromptInput } from "./prompt-queue.js";
import type { UserMessageExtra } from "../user-message.js";

export { asTyped, promptOf, type PromptInput } from "./prompt-queue.js";

/** What the hooks made of a person's prompt: what to send with it or instead (see UserMessageExtra), or a block that drops it. */
export type PromptAdmission = Pick<UserMessageExtra, "context" | "startContext" | "prompt"> & { blocked?: string };

export interface AgentRuntimeOptions {
  /** Emits as this agent (scoped for a subagent). */
  emit: Emit;
  conversation: Conversation;
  provider(): ChatProvider;
  retry: RetryPolicy;
  /** The tools offered now. */
  tools(): ToolSet;
  toolEnvironment(tools: ToolSet): ToolRunEnvironment;
  /** The mode now (it may change while a prompt runs). */
  preset(): ModePreset;
  /** Nobody watches the run, so the repeat guard stops it instead of asking; the mode is autopilot when absent. */
  unattended?(): boolean;
  maxContinues: number;
  /** What autopilot works toward (the main agent's /autopilot objective). */
  objective?(): string | undefined;
  nextTurnId(): string;
  /** Counts every request made, retries and interrupted ones included. */
  recordRequest(model: string): void;
  recordCall(call: { model: string; inputTokens: number; outputTokens: number; durationMs: number }): void;
  onTurnEnd(): void;
  /** The system prompt, sent once per process before the first prompt. */
  systemPrompt(): string | Promise<string>;
  /** The user.message data for a prompt (the date header, notices, tagged files, the mode, a hook's context). */
  userMessage(input: PromptInput, extra: UserMessageExtra): EventData<"user.message">;
  /**
   * Before a person's prompt joins the conversation, however it arrives (idle, queued, steering), once each; never
   * for autopilot continuations, stop-hook reasons or silent turns (the userPromptSubmitted hook).
   */
  beforePrompt?(input: PromptInput, signal: AbortSignal): Promise<PromptAdmission>;
  /** Then, with its message built: the message the model gets instead (the userPromptTransformed hook). */
  transformPrompt?(prompt: string, transformed: string, signal: AbortSignal): Promise<string | undefined>;
  /** The prompt's run ended (the agentStop / subagentStop hook): a reason to go on with, as the next prompt. */
  onStop?(stopHookActive: boolean, signal: AbortSignal): Promise<string | undefined>;
  /** Awaited after a prompt is admitted, before its requests are built (the TUI's keys typed right after Enter first). */
  beforeRequests?(): Promise<void>;
  /** A run ended (the session emits session.idle for its main agent). */
  onRunEnd?(result: RunResult): void;
  /** See PromptRunContext.awaitBackground: a mode that goes on waits for running background agents first. */
  awaitBackground?(signal: AbortSignal): Promise<boolean>;
  /** Whether to stop before the next model call (a subagent's budget); the prompt then ends as aborted. */
  stopBeforeCall?(): boolean;
  /** Runs a user's `!cmd` (only the main agent takes them). */
  runShell?(command: string, signal: AbortSignal): Promise<void>;
  /** Hands a queued command to the application that runs it (only the main agent takes them). */
  handOffCommand?(command: string, signal: AbortSignal): Promise<{ stopProcessingQueue: boolean }>;
  /** This agent's compaction (agent-runtimes.ts makes it over the same conversation, provider and tools). */
  compactor?: Compactor;
}

export class AgentRuntime {
  readonly queue: PromptQueue;
  private controller: AbortController | undefined;
  private current: Promise<RunResult> | undefined;
  private readonly notifications: EventData<"system.notification">[] = [];
  private systemPromptSent = false;
  private lastMessage = "";
  /** An answer cut by the output limit, which the next message continues. */
  private cutAnswer = "";

  constructor(private readonly options: AgentRuntimeOptions) {
    this.queue = new PromptQueue(options.emit);
  }

  /** This agent's compaction, when it has one. */
  get compactor(): Compactor | undefined {
    return this.options.compactor;
  }

  /** /compact: summarises the conversation now; not while a prompt runs (automatic compaction covers that). */
  async compact(focus?: string): Promise<CompactResult> {
    const { compactor } = this;
    if (!compactor) return { success: false, error: "This agent cannot compact its conversation." };
    if (this.controller) return { success: false, error: "The agent is working; compact when it is idle (it compacts by itself when the context fills up)." };
    return this.exclusive(async (signal) => {
      try {
        return await compactor.compact("manual", signal, focus);
      } finally {
        this.options.onTurnEnd();
      }
    });
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  /**
   * A prompt for this agent. Idle: it runs now. Busy: "enqueue" waits in the queue, "immediate" steers the
   * running prompt (taken before its next model call) and settles with it.
   */
  submit(input: PromptInput, delivery: "enqueue" | "immediate" = "enqueue"): Promise<RunResult> {
    if (this.controller) {
      if (delivery === "immediate" && this.current) {
        this.queue.steer(input);
        return this.current;
      }
      return this.queue.enqueue(input);
    }
    if (this.queue.length > 0) {
      // Held after an interrupt: a new prompt goes behind what is queued, and the queue runs in order.
      const queued = this.queue.enqueue(input);
      this.queue.resume();
      this.drain();
      return queued;
    }
    this.queue.passThrough();
    return this.run(input, "idle");
  }

  /** Sends what the queue holds (it pauses after an interrupt). */
  flushQueue(): void {
    this.queue.resume();
    this.drain();
  }

  /**
   * Something the model should know (a background shell ended, an agent finished): delivered before the next
   * model call when the agent is working, at once when it is idle.
   */
  notify(notification: EventData<"system.notification">): void {
    if (this.controller) this.notifications.push(notification);
    else this.options.emit("system.notification", notification);
  }

  /** The system prompt changed (a custom agent was selected): the next prompt sends it again. */
  refreshSystemPrompt(): void {
    this.systemPromptSent = false;
  }

  interrupt(): void {
    this.controller?.abort();
  }

  /** Runs work that must not overlap a prompt (a user's `!cmd`): prompts sent meanwhile queue behind it. */
  async exclusive<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.controller) throw new Error("Wait for the agent to finish first.");
    const controller = new AbortController();
    this.controller = controller;
    try {
      return await work(controller.signal);
    } finally {
      this.controller = undefined;
      this.deliverNotifications();
      this.drain();
    }
  }

  private async runShell(command: string): Promise<RunResult> {
    const { runShell } = this.options;
    if (!runShell) throw new Error("This agent does not run shell commands.");
    await this.exclusive((signal) => runShell(command, signal));
    return { outcome: "completed", finalMessage: "", continuations: 0 };
  }

  private async handOff(command: string): Promise<RunResult> {
    const { handOffCommand } = this.options;
    if (!handOffCommand) throw new Error("This agent hands no commands to an application.");
    await this.exclusive(async (signal) => {
      // Held before the queue drains: what waits behind it runs when the next prompt arrives.
      if ((await handOffCommand(command, signal)).stopProcessingQueue) this.queue.pause();
    });
    return { outcome: "completed", finalMessage: "", continuations: 0 };
  }

  private drain(): void {
    if (this.controller) return;
    const next = this.queue.next();
    if (next) void this.run(next, "queued").then(next.resolve);
  }

  private deliverNotifications(): void {
    for (const notification of this.notifications.splice(0)) this.options.emit("system.notification", notification);
  }

  private emit: Emit = (type, data) => {
    if (type === "assistant.message") {
      // An answer the output limit cut and its continuation are one answer.
      const { content, finishReason, toolRequests } = data as EventData<"assistant.message">;
      const whole = this.cutAnswer + content;
      this.cutAnswer = finishReason === "length" && !toolRequests ? whole : "";
      if (whole.trim() !== "") this.lastMessage = whole;
    }
    return this.options.emit(type, data);
  };

  /**
   * Before each model call: notifications, then the steering that arrived, each admitted like a prompt.
   * Resolves to whether a person's message joined.
   */
  private async deliverSteering(signal: AbortSignal): Promise<boolean> {
    this.deliverNotifications();
    let delivered = false;
    const steering = this.queue.takeSteering();
    while (steering.length > 0 && !signal.aborted) if (await this.admit(steering.shift() as PromptInput, "steering", signal)) delivered = true;
    // Interrupted while a hook ran: what was not delivered yet runs as the next prompt, like late steering.
    for (const late of steering) this.queue.steer(late);
    return delivered;
  }

  private run(input: PromptInput, delivery: "idle" | "queued"): Promise<RunResult> {
    if (input.shell) return this.runShell(input.prompt);
    if (input.clientCommand) return this.handOff(input.prompt);
    const controller = new AbortController();
    this.controller = controller;
    this.current = this.execute(input, delivery, controller);
    return this.current;
  }

  private async execute(input: PromptInput, delivery: "idle" | "queued", controller: AbortController): Promise<RunResult> {
    const result: RunResult = { outcome: "completed", finalMessage: "", continuations: 0 };
    this.lastMessage = "";
    this.cutAnswer = "";
    try {
      if (!this.systemPromptSent) {
        this.systemPromptSent = true;
        // Awaited only when a face rewrites parts of it: otherwise it goes out before anything else of the run.
        const prompt = this.options.systemPrompt();
        this.options.emit("system.message", { content: typeof prompt === "string" ? prompt : await prompt, role: "system" });
      }
      // A prompt a hook blocked never reaches the model: the run ends without a turn.
      if (input.silent || (await this.admit(input, delivery, controller.signal))) await this.runToStop(input, controller.signal, result);
    } catch (error) {
      result.outcome = "error";
      result.error = { kind: "internal", message: (error as Error).message };
      this.options.emit("session.error", { errorType: "internal", message: (error as Error).message });
    } finally {
      result.finalMessage = this.lastMessage;
      this.controller = undefined;
      this.current = undefined;
      // Steering that arrived too late for this prompt is not lost: it runs as the next prompt.
      for (const late of this.queue.takeSteering()) void this.queue.enqueue(late);
      if (result.outcome === "aborted") this.queue.pause();
      this.deliverNotifications();
      this.options.onRunEnd?.(result);
    }
    this.drain();
    return result;
  }

  /** A person's prompt joins the conversation, with what the hook added; false when the hook blocked it (it says so). */
  private async admit(input: PromptInput, delivery: "idle" | "queued" | "steering", signal: AbortSignal): Promise<boolean> {
    const admission = this.options.beforePrompt ? await this.options.beforePrompt(input, signal) : {};
    if (admission.blocked !== undefined) {
      const excerpt = input.prompt.length > 60 ? `${input.prompt.slice(0, 57)}...` : input.prompt;
      this.options.emit("session.warning", {
        warningType: "prompt_blocked",
        message: `A userPromptSubmitted hook blocked the prompt "${excerpt}"; it was not sent to the model. Reason: ${admission.blocked}`,
      });
      return false;
    }
    const { blocked: _blocked, ...extra } = admission;
    const message = this.options.userMessage(input, { delivery, ...extra });
    const { transformPrompt } = this.options;
    const rewritten = transformPrompt
      ? await transformPrompt(admission.prompt ?? input.prompt, message.transformedContent ?? message.content, signal)
      : undefined;
    this.emit("user.message", rewritten === undefined ? message : { ...message, transformedContent: rewritten });
    return true;
  }

  /** The prompt's turns, then what stop hooks send it back to do. */
  private async runToStop(input: PromptInput, signal: AbortSignal, result: RunResult): Promise<void> {
    const context = promptContext(this.options, input, {
      emit: this.emit,
      deliverSteering: (signal) => this.deliverSteering(signal),
      hasSteering: () => this.queue.hasSteering,
      ...(this.compactor ? { compactor: this.compactor } : {}),
    });
    await this.options.beforeRequests?.();
    return runPromptToStop(context, signal, result);
  }
}
