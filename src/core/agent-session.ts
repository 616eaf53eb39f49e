/**
 * The engine's handle on one session: commands go in through `dispatch`, events come out through
 * `subscribe`. It holds the session-wide state (mode, model, permissions, the interaction broker) around
 * the main agent's runtime; the loop and the queue live in the runtime, which subagents reuse.
 */
import { randomUUID } from "node:crypto";
import type { CommandResult, RunResult, SessionCommand } from "../protocol/commands.js";
import type { AgentMode, Attachment, BackgroundTasks, EventData, WorkingDirectoryContext } from "../protocol/events/index.js";
import type { RetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import type { AnyTool } from "../tools/define-tool.js";
import type { McpManager } from "../mcp/index.js";
import { taggedFilesBlock } from "./attachments.js";
import { runChildAgent, type ChildAgentSpec } from "./child-agent.js";
import type { Conversation } from "./conversation.js";
import type { InstructionFile } from "./custom-instructions.js";
import { describeOs, userShell } from "./environment.js";
import type { Emit, EventListener, EventSink } from "./event-sink.js";
import { routeInput } from "./input-router.js";
import type { InteractionBroker } from "./interaction-broker.js";
import { availableModes, modePreset, type ModePreset } from "./modes.js";
import type { PermissionBroker } from "./permission-broker.js";
import type { PermissionSummary } from "./permission-summary.js";
import { AgentRuntime, type PromptInput } from "./runtime/agent-runtime.js";
import { SessionMetrics } from "./session-metrics.js";
import type { ToolRunEnvironment } from "./tool-runner.js";
import { buildSystemPrompt, transformUserMessage } from "./system-prompt.js";
import { ToolSet } from "./tool-set.js";
import { runUserShellCommand } from "./user-shell-command.js";

export interface AgentSessionOptions {
  id: string;
  dir: string;
  context: WorkingDirectoryContext;
  sink: EventSink;
  conversation: Conversation;
  provider: ChatProvider;
  /** Makes a provider for another model (/model, a subagent's model); without it the model cannot change. */
  createProvider?(model: string): ChatProvider;
  retry: RetryPolicy;
  mode: AgentMode;
  maxAutopilotContinues: number;
  /** A person can answer questions and permission requests. */
  interactive: boolean;
  permissions: PermissionBroker;
  interactions: InteractionBroker;
  tools: readonly AnyTool[];
  /** --available-tools / --excluded-tools: which tools the model may see at all. */
  toolFilter?: { available?: readonly string[]; excluded?: readonly string[] };
  instructions: readonly InstructionFile[];
  /** The session's MCP servers, when any are configured: their tools join the built-in ones. */
  mcp?: McpManager;
  backgroundTasks(): BackgroundTasks;
  /** Flushes the log to disk (turn boundaries). */
  syncLog(): void;
  /** Releases what the session holds (background shells, the log); called by shutdown(). */
  dispose(): void;
  turnCount?: number;
}

/** How long the first prompt waits for MCP servers still starting (AGENT_MCP_STARTUP_WAIT_MS overrides, for tests). */
function mcpStartupWaitMs(): number {
  const fromEnv = Number(process.env.AGENT_MCP_STARTUP_WAIT_MS);
  return Number.isFinite(fromEnv) && fromEnv >= 0 && process.env.AGENT_MCP_STARTUP_WAIT_MS !== undefined ? fromEnv : 5_000;
}

export class AgentSession {
  readonly id: string;
  readonly dir: string;
  readonly cwd: string;
  readonly metrics = new SessionMetrics();
  private readonly runtime: AgentRuntime;
  private readonly allTools: readonly AnyTool[];
  private readonly modeGatedTools: Set<string>;
  private preset: ModePreset;
  private pendingNotices: string[] = [];
  private turnCount: number;
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
    this.provider = options.provider;
    const emit = options.sink.emit;
    this.runtime = new AgentRuntime({
      emit,
      conversation: options.conversation,
      provider: () => this.provider,
      retry: options.retry,
      tools: () => this.tools(),
      toolEnvironment: (tools) => this.toolEnvironment(tools, emit),
      preset: () => this.preset,
      maxContinues: options.maxAutopilotContinues,
      nextTurnId: this.nextTurnId,
      recordRequest: (model) => this.metrics.recordRequest(model),
      recordCall: (call) => this.metrics.recordCall(call),
      onTurnEnd: () => options.syncLog(),
      systemPrompt: () => this.systemPrompt(),
      userMessage: (input, extra) => this.userMessage(input, extra),
      onRunEnd: (result) => this.emitIdle(result.outcome === "aborted"),
      runShell: async (command, signal) => {
        try {
          await runUserShellCommand(command, this.toolEnvironment(new ToolSet(this.allTools), emit), signal);
        } finally {
          options.syncLog();
          this.emitIdle(false);
        }
      },
    });
  }

  get mode(): AgentMode {
    return this.preset.mode;
  }

  get model(): string {
    return this.provider.model;
  }

  get busy(): boolean {
    return this.runtime.busy;
  }

  get allowAll(): boolean {
    return this.options.permissions.allowAll;
  }

  /** Everything that approves calls without asking, with where it came from. */
  get permissionSummary(): PermissionSummary {
    return this.options.permissions.summary;
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

  /** The models the endpoint offers. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    return this.provider.listModels ? this.provider.listModels(signal) : [this.provider.model];
  }

  subscribe(listener: EventListener): () => void {
    return this.options.sink.subscribe(listener);
  }

  /** The tools offered in the current mode. */
  tools(): ToolSet {
    const { available, excluded } = this.options.toolFilter ?? {};
    return new ToolSet(
      [...this.allTools, ...(this.options.mcp?.tools() ?? [])].filter(
        (tool) =>
          (!this.modeGatedTools.has(tool.name) || this.preset.extraTools.includes(tool.name)) &&
          !(this.preset.withheldTools ?? []).includes(tool.name) &&
          (available === undefined || available.includes(tool.name)) &&
          !(excluded ?? []).includes(tool.name),
      ),
    );
  }

  /** The one way in: every change to the session is a command. */
  dispatch<C extends SessionCommand>(command: C): CommandResult<C>;
  dispatch(command: SessionCommand): CommandResult<SessionCommand> {
    switch (command.type) {
      case "input":
        return routeInput({ session: this, emit: this.options.sink.emit, cwd: this.cwd }, command);
      case "send":
        return this.send({ prompt: command.prompt, attachments: command.attachments, source: command.source }, command.delivery);
      case "interrupt":
        return this.runtime.interrupt();
      case "respond":
        return this.options.interactions.respond(command.requestId, command.reply);
      case "set_mode":
        return this.setMode(command.mode);
      case "set_model":
        return this.setModel(command.model);
      case "set_allow_all":
        return this.setAllowAll(command.on);
      case "reset_allowed_tools":
        this.options.permissions.resetAllowedTools();
        this.options.sink.emit("session.info", { infoType: "permissions", message: "This session's approvals are forgotten; approvals kept for this directory remain." });
        return;
      case "run_shell":
        return this.runShellCommand(command.command);
      case "unqueue": {
        const item = this.runtime.queue.remove(command.id);
        return item ? { id: item.id, prompt: item.prompt, ...(item.attachments ? { attachments: item.attachments } : {}) } : undefined;
      }
      case "flush_queue":
        return this.runtime.flushQueue();
      case "shutdown":
        return this.shutdown(command.reason ? "error" : "routine", command.reason);
    }
  }

  private send(input: PromptInput, delivery?: "enqueue" | "immediate"): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error("The session is shut down."));
    const waiting = this.awaitMcpStartup();
    return waiting ? waiting.then(() => this.runtime.submit(input, delivery)) : this.runtime.submit(input, delivery);
  }

  /** The session's MCP servers, when any are configured (for /mcp). */
  get mcp(): McpManager | undefined {
    return this.options.mcp;
  }

  private mcpStartup?: Promise<void>;
  private mcpStartupDone = false;

  /** Once, before the first prompt: servers still starting get a short while, then the session goes on without them. */
  private awaitMcpStartup(): Promise<void> | undefined {
    const mcp = this.options.mcp;
    if (!mcp || this.mcpStartupDone) return undefined;
    this.mcpStartup ??= mcp.waitForStartup(mcpStartupWaitMs()).then((late) => {
      this.mcpStartupDone = true;
      if (late.length === 0) return;
      this.options.sink.emit("session.warning", {
        warningType: "mcp",
        message: `MCP server${late.length > 1 ? "s" : ""} ${late.join(", ")} still starting; going on without ${late.length > 1 ? "their" : "its"} tools for now (they join when ready).`,
      });
    });
    return this.mcpStartup;
  }

  /** `!cmd`: runs a command for the user (after what is queued); its output goes to the model with the next prompt. */
  private async runShellCommand(command: string): Promise<void> {
    if (this.closed) throw new Error("The session is shut down.");
    await this.runtime.submit({ prompt: command, shell: true });
  }

  /**
   * Runs a subagent to its end inside a tool call of the main agent: its own conversation and system
   * prompt, the session's provider factory, permission gate, broker and log; interrupting the session
   * interrupts it.
   */
  runChild(spec: ChildAgentSpec, signal: AbortSignal): Promise<RunResult> {
    return runChildAgent(spec, signal, {
      sink: this.options.sink,
      provider: spec.model && this.options.createProvider ? this.options.createProvider(spec.model) : this.provider,
      retry: this.options.retry,
      tools: this.tools(),
      toolEnvironment: (tools, emit) => this.toolEnvironment(tools, emit),
      nextTurnId: this.nextTurnId,
      recordRequest: (model) => this.metrics.recordRequest(model),
      recordCall: (call) => this.metrics.recordCall(call),
      onTurnEnd: () => this.options.syncLog(),
    });
  }

  /** What a tool call of any agent of this session runs with; `emit` says which agent. */
  private toolEnvironment(tools: ToolSet, emit: Emit): ToolRunEnvironment {
    return {
      tools,
      cwd: this.cwd,
      sessionDir: this.dir,
      emit,
      permissions: this.options.permissions.forAgent(emit),
      ask: (kind, request, signal) => this.options.interactions.ask(kind, request, { emit, signal }),
      onCodeChange: (change) => this.metrics.recordCodeChange(change),
    };
  }

  /** Something the model should know, delivered between turns (or at once when idle). */
  notify(notification: EventData<"system.notification">): void {
    this.runtime.notify(notification);
  }

  private readonly nextTurnId = (): string => String(++this.turnCount);

  private setModel(model: string): void {
    if (model === this.provider.model) return;
    if (!this.options.createProvider) throw new Error("This session cannot change its model.");
    const previousModel = this.provider.model;
    this.provider = this.options.createProvider(model);
    this.options.sink.emit("session.model_change", { previousModel, newModel: model, source: "model_command" });
  }

  private setMode(mode: AgentMode): void {
    if (mode === this.preset.mode) return;
    const previous = this.preset.mode;
    this.preset = modePreset(mode);
    this.pendingNotices = [this.preset.switchNotice];
    this.options.sink.emit("session.mode_changed", { previousMode: previous, newMode: mode });
  }

  private setAllowAll(on: boolean): void {
    const before = this.options.permissions.allowAll;
    const summaryBefore = JSON.stringify(this.options.permissions.summary);
    this.options.permissions.setAllowAll(on);
    const after = this.options.permissions.allowAll;
    if (before === after && JSON.stringify(this.options.permissions.summary) === summaryBefore) return;
    this.options.sink.emit("session.permissions_changed", {
      previousMode: before ? "allow-all" : "manual",
      mode: after ? "allow-all" : "manual",
      summary: this.options.permissions.summary,
    });
  }

  private emitIdle(aborted: boolean): void {
    this.options.sink.emit("session.idle", { backgroundTasks: this.options.backgroundTasks(), ...(aborted ? { aborted: true } : {}), mode: this.preset.mode });
  }

  private systemPrompt(): string {
    return buildSystemPrompt({
      context: this.options.context,
      os: describeOs(),
      shell: userShell(),
      date: new Date(),
      toolNames: this.tools().names,
      mode: this.preset,
      interactive: this.options.interactive,
      instructions: [...this.options.instructions, ...(this.options.mcp?.instructions() ?? []).map(({ server, text }) => ({ path: `mcp:${server}`, content: text }))],
      sessionDir: this.dir,
    });
  }

  private userMessage(input: PromptInput, extra: { delivery?: "idle" | "queued" | "steering"; continuation?: boolean }): EventData<"user.message"> {
    const notices = this.pendingNotices;
    this.pendingNotices = [];
    const attachments: Attachment[] | undefined = input.attachments;
    const tagged = attachments ? taggedFilesBlock(attachments, this.cwd) : "";
    return {
      content: input.prompt,
      transformedContent: transformUserMessage(tagged === "" ? input.prompt : `${input.prompt}\n\n${tagged}`, { now: new Date(), notices }),
      ...(attachments && attachments.length > 0 ? { attachments } : {}),
      messageId: randomUUID(),
      agentMode: this.preset.mode,
      ...(input.source ? { source: input.source } : {}),
      ...(extra.delivery ? { delivery: extra.delivery } : {}),
      ...(extra.continuation ? { isAutopilotContinuation: true } : {}),
      interactionId: randomUUID(),
    };
  }

  /** Ends the session: interrupts work, writes session.shutdown, stops background shells, closes the log. */
  private shutdown(shutdownType: "routine" | "error" = "routine", errorReason?: string): void {
    if (this.closed) return;
    this.runtime.interrupt();
    this.runtime.queue.clear();
    this.options.interactions.cancelAll();
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

/** What a face may use of a session: commands in, events out, and a few read-only facts. */
export type SessionView = Pick<
  AgentSession,
  "id" | "cwd" | "mode" | "model" | "busy" | "allowAll" | "permissionSummary" | "hasConversation" | "instructionPaths" | "listModels" | "subscribe" | "dispatch"
>;
