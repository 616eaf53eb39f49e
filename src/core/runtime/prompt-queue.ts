/**
 * The one prompt queue of an agent. Prompts sent while the agent works wait here and run, in order, when
 * it is idle; steering messages ("immediate" delivery) are taken between turns of the running prompt
 * instead. After an interrupt the queue pauses, so what the user queued is not sent behind their back: it
 * stays visible and editable until they flush it. Every change is announced (pending_messages.modified).
 */
import { randomUUID } from "../../util/random-id.js";
import type { Attachment } from "../../protocol/events/index.js";
import type { RunResult, SessionCommand } from "../../protocol/commands.js";
import type { Emit } from "../event-sink.js";

export interface PromptInput {
  prompt: string;
  attachments?: Attachment[];
  source?: string;
  /** A user's `!cmd` rather than a prompt: it waits its turn like one, then runs as a shell command. */
  shell?: boolean;
  /** No user message: the model answers what the conversation already ends with (a notification). */
  silent?: boolean;
  /** What the person typed, when the prompt was made from it (`/review` → its template). */
  typed?: string;
  /** `/<skill>`: the skill the user invoked, loaded into the conversation just before this prompt. */
  skill?: string;
  /**
   * Answered in one model call, in text (tool_choice none; a call that comes anyway is not run): a subagent's
   * last turn after its budget is spent.
   */
  withoutTools?: boolean;
  /** Extra HTTP headers on this prompt's model requests (an SDK app's send). */
  requestHeaders?: Record<string, string>;
  /** A slash command the application runs itself: handed to it when its turn comes (client-commands.ts). */
  clientCommand?: boolean;
}

/** The prompt a `send` command carries. */
export function promptOf(command: Extract<SessionCommand, { type: "send" }>): PromptInput {
  const { prompt, attachments, source, typed, requestHeaders } = command;
  return { prompt, attachments, source, typed, requestHeaders };
}

/** A queued prompt as the person would type it again: the command they typed, `!cmd` for a shell command. */
export function asTyped(item: PromptInput): string {
  return item.typed ?? (item.shell ? `!${item.prompt}` : item.prompt);
}

export interface QueuedPrompt extends PromptInput {
  id: string;
  /** Settles with the prompt's run; a prompt taken out of the queue settles as aborted. */
  resolve(result: RunResult): void;
}

export class PromptQueue {
  private readonly items: QueuedPrompt[] = [];
  private readonly steering: PromptInput[] = [];
  private paused = false;

  constructor(private readonly emit: Emit) {}

  get length(): number {
    return this.items.length;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Queues a prompt to run after the current one; the promise settles when it has run. */
  enqueue(input: PromptInput): Promise<RunResult> {
    return new Promise((resolve) => {
      this.items.push({ ...input, id: randomUUID(), resolve });
      this.announce();
    });
  }

  /**
   * A prompt sent to an idle agent runs at once, yet passes the queue as Copilot's do: the queue announces
   * that it took one, so a client that follows the queue sees every prompt go through it.
   */
  passThrough(): void {
    this.announce();
  }

  /** The next prompt to run, unless the queue is paused. */
  next(): QueuedPrompt | undefined {
    if (this.paused) return undefined;
    const item = this.items.shift();
    if (item) this.announce();
    return item;
  }

  /** Takes one prompt out (to edit or drop it); its sender is told it never ran. */
  remove(id: string): QueuedPrompt | undefined {
    const index = this.items.findIndex((item) => item.id === id);
    if (index < 0) return undefined;
    const [item] = this.items.splice(index, 1) as [QueuedPrompt];
    if (this.items.length === 0) this.paused = false;
    this.announce();
    item.resolve({ outcome: "aborted", finalMessage: "", continuations: 0 });
    return item;
  }

  /** After an interrupt: hold what is queued until the user flushes it. */
  pause(): void {
    if (this.items.length === 0 || this.paused) return;
    this.paused = true;
    this.announce();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.announce();
  }

  /** A message for the running prompt, taken before its next model call. */
  steer(input: PromptInput): void {
    this.steering.push(input);
  }

  get hasSteering(): boolean {
    return this.steering.length > 0;
  }

  takeSteering(): PromptInput[] {
    return this.steering.splice(0);
  }

  /** Everything still waiting is dropped (the session is closing). */
  clear(): void {
    const dropped = this.items.splice(0);
    this.steering.length = 0;
    this.paused = false;
    if (dropped.length > 0) this.announce();
    for (const item of dropped) item.resolve({ outcome: "aborted", finalMessage: "", continuations: 0 });
  }

  private announce(): void {
    this.emit("pending_messages.modified", {
      items: this.items.map((item) => ({
        id: item.id,
        prompt: asTyped(item),
        ...(item.attachments?.length ? { attachments: item.attachments } : {}),
      })),
      paused: this.paused,
    });
  }
}
