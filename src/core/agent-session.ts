/**
 * The engine's handle on one session: commands go in, events come out. It owns the conversation, the mode,
 * the permission broker and the queue of prompts; the loop itself lives in agent-loop.ts.
 */
import { randomUUID } from "node:crypto";
import type { RetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import type { AnyTool } from "../tools/define-tool.js";
import { runToolLoop, type LoopContext } from "./agent-loop.js";
import type { RunResult, SessionCommand } from "./commands.js";
import { Conversation } from "./conversation.js";
import type { AgentMode, BackgroundTasks, SessionEvent, WorkingDirectoryContext } from "./events/index.js";
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

  constructor(private readonly options: AgentSessionOptions) {
    this.id = options.id;
    this.dir = options.dir;
    this.cwd = options.context.cwd;
    this.preset = modePreset(options.mode);
    this.allTools = options.tools;
    this.modeGatedTools = new Set(availableModes().flatMap((mode) => modePreset(mode).extraTools));
    this.turnCount = options.turnCount ?? 0;
    this.permissions = options.permissions;
  }

  get mode(): AgentMode {
    return this.preset.mode;
  }

  get model(): string {
    return this.options.provider.model;
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
  send(prompt: string, options: { source?: string } = {}): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error("The session is shut down."));
    if (this.controller) {
      return new Promise((resolve) => this.queue.push({ prompt, source: options.source, resolve }));
    }
    return this.run(prompt, options.source, "idle");
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

  private emitUserMessage(content: string, extra: { source?: string; delivery?: "idle" | "queued"; continuation?: boolean }): void {
    const notices = this.pendingNotices;
    this.pendingNotices = [];
    this.options.sink.emit("user.message", {
      content,
      transformedContent: transformUserMessage(content, { now: new Date(), notices }),
      messageId: randomUUID(),
      agentMode: this.preset.mode,
      ...(extra.source ? { source: extra.source } : {}),
      ...(extra.delivery ? { delivery: extra.delivery } : {}),
      ...(extra.continuation ? { isAutopilotContinuation: true } : {}),
      interactionId: randomUUID(),
    });
  }

  private loopContext(): LoopContext {
    const { sink, provider } = this.options;
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
      recordCall: (call) => this.metrics.recordCall(call),
      onTurnEnd: () => this.options.syncLog(),
    };
  }

  private async run(prompt: string, source: string | undefined, delivery: "idle" | "queued"): Promise<RunResult> {
    const controller = new AbortController();
    this.controller = controller;
    const result: RunResult = { outcome: "completed", finalMessage: "", continuations: 0 };
    const unsubscribe = this.options.sink.subscribe((event: SessionEvent) => {
      if (event.type === "assistant.message" && event.data.content.trim() !== "" && !event.agentId) result.finalMessage = event.data.content;
    });
    try {
      this.emitSystemPrompt();
      this.emitUserMessage(prompt, { source, delivery });
      const context = this.loopContext();
      for (;;) {
        const outcome = await runToolLoop(context, controller.signal);
        if (outcome.kind === "task_complete") {
          Object.assign(result, { outcome: "task_complete", summary: outcome.summary });
          break;
        }
        if (outcome.kind === "aborted") {
          result.outcome = "aborted";
          break;
        }
        if (outcome.kind === "error") {
          result.outcome = "error";
          result.error = { kind: outcome.error.kind, message: outcome.error.message, statusCode: outcome.error.statusCode };
          if (this.preset.extraTools.includes("task_complete")) {
            this.options.sink.emit("session.autopilot_stopped", { reason: "error", continuations: result.continuations, message: `Autopilot stopped: ${outcome.error.message}` });
          }
          break;
        }
        const next = this.preset.onLoopEnd({ continuations: result.continuations, maxContinues: this.options.maxAutopilotContinues });
        if (next.action === "stop") break;
        if (next.action === "stop_at_limit") {
          result.outcome = "max_continues";
          this.options.sink.emit("session.autopilot_stopped", { reason: "max_continues", continuations: result.continuations, message: next.message });
          break;
        }
        result.continuations++;
        this.emitUserMessage(next.message, { source: "autopilot", continuation: true });
      }
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
    if (next) void this.run(next.prompt, next.source, "queued").then(next.resolve);
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
