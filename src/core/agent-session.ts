/**
 * The engine's handle on one session: commands go in, events come out. It owns the conversation, the mode,
 * the permission broker and the queue of prompts; the loop itself lives in agent-loop.ts.
 */
import { randomUUID } from "node:crypto";
import type { RetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import type { AnyTool } from "../tools/define-tool.js";
import type { LoopContext } from "./agent-loop.js";
import { runPrompt } from "./prompt-run.js";
import type { RunResult, SessionCommand } from "./commands.js";
import { Conversation } from "./conversation.js";
import { taggedFilesBlock } from "./attachments.js";
import type { AgentMode, Attachment, BackgroundTasks, SessionEvent, WorkingDirectoryContext } from "./events/index.js";
import { runUserShellCommand } from "./user-shell-command.js";
import type { EventListener, EventSink } from "./event-sink.js";
import { availableModes, modePreset, type ModePreset } from "./modes.js";
import type { PermissionBroker, PermissionReply } from "./permission-broker.js";
import { SessionMetrics } from "./session-metrics.js";
import { buildSystemPrompt, transformUserMessage } from "./system-prompt.js";
import { ToolSet } from "./tool-set.js";
import { describeOs, userShell } from "./environment.js";
import type { InstructionFile } from "./custom-instructions.js";

export interface AgentSessionOptions {
  id: string;
  dir: string;
  context: WorkingDirectoryContext;
  sink: EventSink;
  conversation: Conversation;
  provider: ChatProvider;
  /** Makes a provider for another model (/model); without it the model cannot be changed. */
  createProvider?(model: string): ChatProvider;
  retry: RetryPolicy;
  mode: AgentMode;
  maxAutopilotContinues: number;
  /** A person can answer questions and permission requests. */
  interactive: boolean;
  permissions: PermissionBroker;
  tools: readonly AnyTool[];
  /** --available-tools / --excluded-tools: which tools the model may see at all. */
  toolFilter?: { available?: readonly string[]; excluded?: readonly string[] };
  instructions: readonly InstructionFile[];
  backgroundTasks(): BackgroundTasks;
  /** Flushes the log to disk (turn boundaries). */
  syncLog(): void;
  /** Releases what the session holds (background shells, the log); called by shutdown(). */
  dispose(): void;
  turnCount?: number;
}

interface Queued {
  prompt: string;
  source?: string;
  attachments?: Attachment[];
  resolve(result: RunResult): void;
}

export class AgentSession {
  readonly id: string;
  readonly dir: string;
  readonly cwd: string;
  readonly metrics = new SessionMetrics();
  private readonly permissions: PermissionBroker;
  private readonly allTools: readonly AnyTool[];
  private readonly modeGatedTools: Set<string>;
  private preset: ModePreset;
  private controller: AbortController | undefined;
  private readonly queue: Queued[] = [];
  private pendingNotices: string[] = [];
  private turnCount: number;
  private systemPromptSent = false;
  private closed = false;
  private provider: ChatProvider;

  constructor(private readonly options: AgentSessionOptions) {
    this.id = options.id;
    this.dir = options.dir;
    this.cwd = options.context.cwd;
    this.preset = modePreset(options.mode);
    this.allTools = options.tools;
    this.modeGatedTools = new Set(availableModes().flatMap((mode) => modePreset(mode).extraTools));
    this.turnCount = options.turnCount ?? 0;
    this.permissions = options.permissions;
    this.provider = options.provider;
  }

  get mode(): AgentMode {
    return this.preset.mode;
  }

  get model(): string {
    return this.provider.model;
  }

  /** Whether anything was said in this session yet (a prompt, an answer). */
  get hasConversation(): boolean {
    return this.options.conversation.length > (this.options.conversation.hasSystemPrompt ? 1 : 0);
  }

  /** The custom instruction files in the system prompt. */
  get instructionPaths(): string[] {
    return this.options.instructions.map((file) => file.path);
  }

  get contextLimit(): number {
    return this.provider.limits.maxPromptTokens;
  }

  /** Switches the model for the next turns (/model). */
  setModel(model: string): void {
    if (model === this.provider.model) return;
    if (!this.options.createProvider) throw new Error("This session cannot change its model.");
    const previousModel = this.provider.model;
    this.provider = this.options.createProvider(model);
    this.options.sink.emit("session.model_change", { previousModel, newModel: model, source: "model_command" });
  }

  /** The models the endpoint offers. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    return this.provider.listModels ? this.provider.listModels(signal) : [this.provider.model];
  }

  get busy(): boolean {
    return this.controller !== undefined;
  }

  get permissionBroker(): PermissionBroker {
    return this.permissions;
  }

  subscribe(listener: EventListener): () => void {
    return this.options.sink.subscribe(listener);
  }

  /** The tools offered in the current mode. */
  tools(): ToolSet {
    const { available, excluded } = this.options.toolFilter ?? {};
    return new ToolSet(
      this.allTools.filter(
        (tool) =>
          (!this.modeGatedTools.has(tool.name) || this.preset.extraTools.includes(tool.name)) &&
          !(this.preset.withheldTools ?? []).includes(tool.name) &&
          (available === undefined || available.includes(tool.name)) &&
          !(excluded ?? []).includes(tool.name),
      ),
    );
  }

  dispatch(command: SessionCommand): Promise<RunResult> | boolean | void {
    switch (command.type) {
      case "user_message":
        return this.send(command.prompt, { source: command.source });
      case "interrupt":
        return this.interrupt();
      case "permission_reply":
        return this.respondToPermission(command.requestId, command.reply);
      case "set_mode":
        return this.setMode(command.mode);
      case "set_allow_all":
        return this.permissions.setAllowAll(command.on);
      case "reset_allowed_tools":
        return this.permissions.resetAllowedTools();
    }
  }

  /** Runs a prompt to the end of its loop; while busy, the prompt is queued and runs after the current one. */
  send(prompt: string, options: { source?: string; attachments?: Attachment[] } = {}): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error("The session is shut down."));
    const queued: Queued = { prompt, source: options.source, attachments: options.attachments, resolve: () => undefined };
    if (this.controller) return new Promise((resolve) => this.queue.push({ ...queued, resolve }));
    return this.run(queued, "idle");
  }

  /** `!cmd`: runs a command for the user; its output goes to the model with the next prompt. */
  async runShellCommand(command: string): Promise<void> {
    if (this.controller) throw new Error("Wait for the agent to finish before running a command.");
    const controller = new AbortController();
    this.controller = controller;
    try {
      await runUserShellCommand(command, { emit: this.options.sink.emit, tools: new ToolSet(this.allTools), cwd: this.cwd, sessionDir: this.dir, signal: controller.signal });
    } finally {
      this.controller = undefined;
      this.options.syncLog();
      this.options.sink.emit("session.idle", { backgroundTasks: this.options.backgroundTasks(), mode: this.preset.mode });
    }
  }

  interrupt(): void {
    this.controller?.abort();
  }

  respondToPermission(requestId: string, reply: PermissionReply): boolean {
    return this.permissions.respond(requestId, reply);
  }

  setMode(mode: AgentMode): void {
    if (mode === this.preset.mode) return;
    const previous = this.preset.mode;
    this.preset = modePreset(mode);
    this.pendingNotices = [this.preset.switchNotice];
    this.options.sink.emit("session.mode_changed", { previousMode: previous, newMode: mode });
  }

  private emitSystemPrompt(): void {
    if (this.systemPromptSent) return;
    this.systemPromptSent = true;
    const content = buildSystemPrompt({
      context: this.options.context,
      os: describeOs(),
      shell: userShell(),
      date: new Date(),
      toolNames: this.tools().names,
      mode: this.preset,
      interactive: this.options.interactive,
      instructions: this.options.instructions,
      sessionDir: this.dir,
    });
    this.options.sink.emit("system.message", { content, role: "system" });
  }

  private emitUserMessage(content: string, extra: { source?: string; delivery?: "idle" | "queued"; continuation?: boolean; attachments?: Attachment[] }): void {
    const notices = this.pendingNotices;
    this.pendingNotices = [];
    const tagged = extra.attachments ? taggedFilesBlock(extra.attachments, this.cwd) : "";
    this.options.sink.emit("user.message", {
      content,
      transformedContent: transformUserMessage(tagged === "" ? content : `${content}\n\n${tagged}`, { now: new Date(), notices }),
      ...(extra.attachments && extra.attachments.length > 0 ? { attachments: extra.attachments } : {}),
      messageId: randomUUID(),
      agentMode: this.preset.mode,
      ...(extra.source ? { source: extra.source } : {}),
      ...(extra.delivery ? { delivery: extra.delivery } : {}),
      ...(extra.continuation ? { isAutopilotContinuation: true } : {}),
      interactionId: randomUUID(),
    });
  }

  private loopContext(): LoopContext {
    const { sink } = this.options;
    const provider = this.provider;
    return {
      emit: sink.emit,
      conversation: this.options.conversation,
      provider,
      retry: this.options.retry,
      tools: () => this.tools(),
      toolEnvironment: (tools) => ({
        tools,
        cwd: this.cwd,
        sessionDir: this.dir,
        emit: sink.emit,
        permissions: this.permissions,
        onCodeChange: (change) => this.metrics.recordCodeChange(change),
      }),
      nextTurnId: () => String(++this.turnCount),
      recordRequest: (model) => this.metrics.recordRequest(model),
      recordCall: (call) => this.metrics.recordCall(call),
      onTurnEnd: () => this.options.syncLog(),
    };
  }

  private async run(input: Queued, delivery: "idle" | "queued"): Promise<RunResult> {
    const controller = new AbortController();
    this.controller = controller;
    const result: RunResult = { outcome: "completed", finalMessage: "", continuations: 0 };
    const unsubscribe = this.options.sink.subscribe((event: SessionEvent) => {
      if (event.type === "assistant.message" && event.data.content.trim() !== "" && !event.agentId) result.finalMessage = event.data.content;
    });
    try {
      this.emitSystemPrompt();
      this.emitUserMessage(input.prompt, { source: input.source, delivery, attachments: input.attachments });
      await runPrompt(
        {
          loop: this.loopContext(),
          emit: this.options.sink.emit,
          preset: () => this.preset,
          maxContinues: this.options.maxAutopilotContinues,
          continueWith: (message) => this.emitUserMessage(message, { source: "autopilot", continuation: true }),
        },
        controller.signal,
        result,
      );
    } finally {
      unsubscribe();
      this.controller = undefined;
      this.options.syncLog();
      this.options.sink.emit("session.idle", {
        backgroundTasks: this.options.backgroundTasks(),
        ...(result.outcome === "aborted" ? { aborted: true } : {}),
        mode: this.preset.mode,
      });
    }
    const next = this.queue.shift();
    if (next) void this.run(next, "queued").then(next.resolve);
    return result;
  }

  /** Ends the session: interrupts work, writes session.shutdown, stops background shells, closes the log. */
  shutdown(shutdownType: "routine" | "error" = "routine", errorReason?: string): void {
    if (this.closed) return;
    this.interrupt();
    this.closed = true;
    const tokens = this.options.conversation.estimateTokens();
    this.options.sink.emit("session.shutdown", {
      shutdownType,
      ...(errorReason ? { errorReason } : {}),
      totalPremiumRequests: 0,
      totalApiDurationMs: this.metrics.totalApiDurationMs,
      sessionStartTime: this.metrics.startTime,
      codeChanges: this.metrics.codeChanges,
      modelMetrics: this.metrics.modelMetrics,
      currentModel: this.model,
      currentTokens: tokens,
    });
    this.options.dispose();
  }
}
