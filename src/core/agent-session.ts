/**
 * The engine's handle on one session: commands go in through `dispatch`, events come out through
 * `subscribe`. It holds the session-wide state (mode, model, permissions, the interaction broker) around
 * the main agent's runtime; the loop and the queue live in the runtime, which subagents reuse.
 */
import { realpathSync } from "node:fs";
import type { CommandResult, RunResult, SessionCommand } from "../protocol/commands.js";
import type { AgentMode, BackgroundTasks, EventData, SessionEvent } from "../protocol/events/index.js";
import type { ChatProvider } from "../provider/types.js";
import { switchModel, type CurrentModel } from "./model-switch.js";
import type { AnyTool } from "../tools/define-tool.js";
import { AgentCatalog, selectableAgent, unknownAgentMessage, type AgentDefinition } from "./agents/agent-catalog.js";
import { SessionTools } from "./session-tools.js";
import type { ChildAgentSpec } from "./child-agent.js";
import type { McpManager, McpTaskHost } from "../mcp/index.js";
import { mcpTaskHost } from "./tasks/mcp-tasks.js";
import { compactionOptions, reportContext } from "./compaction/session-compaction.js";
import { McpStartupGate } from "./mcp-startup.js";
import { SelectedAgentMcp } from "./agent-mcp.js";
import { describeOs, userShell } from "./environment.js";
import type { EventListener } from "./event-sink.js";
import { routeInput } from "./input-router.js";
import { modePreset, type ModePreset } from "./modes.js";
import type { PermissionSummary } from "./permission-summary.js";
import { AgentRuntime, asTyped, type PromptAdmission, type PromptInput } from "./runtime/agent-runtime.js";
import { SessionMetrics } from "./session-metrics.js";
import type { AgentDirectory } from "./tasks/agent-directory.js";
import type { TaskRecord } from "./tasks/task-registry.js";
import { DEFAULT_SUBAGENT_LIMITS, SessionSubagents } from "./tasks/session-subagents.js";
import type { SessionHooks } from "./session-hooks.js";
import { shapeSystemPrompt } from "./system-prompt-shape.js";
import { ToolSet } from "./tool-set.js";
import { runUserShellCommand } from "./user-shell-command.js";
import type { AgentSessionOptions } from "./session-options.js";
import { buildUserMessage, type UserMessageExtra } from "./user-message.js";
import { SessionObjective } from "./orchestrate/objective.js";
import { SessionAgents } from "./session-agents.js";
import { finishSession } from "./session-shutdown.js";
import { isWorkspaceCommand, SessionWorkspace } from "./session-admin/session-workspace.js";
import { logMessage } from "./client-log.js";
import { sessionLogFailureResult } from "./session-log-failure.js";
import { handlePermissionCommand, isPermissionCommand } from "./permission-commands.js";
import { isSkillCommand } from "./skills/session-skills.js";

export type { AgentSessionOptions } from "./session-options.js";

export class AgentSession {
  readonly id: string;
  readonly dir: string;
  readonly metrics = new SessionMetrics();
  private readonly runtime: AgentRuntime;
  private readonly subagents: SessionSubagents;
  private readonly mcpGate: McpStartupGate | undefined;
  private readonly agentMcp: SelectedAgentMcp;
  private readonly allTools: readonly AnyTool[];
  private readonly toolbox: SessionTools;
  private readonly agentKit: SessionAgents;
  /** What /cwd, /add-dir, /instructions, /rename and /session delete change. */
  readonly workspace: SessionWorkspace;
  private preset: ModePreset;
  private pendingNotices: string[] = [];
  private turnCount: number;
  private closed = false;
  private provider: ChatProvider;
  /** The custom agent the main session runs as (/agent, --agent). */
  private selectedAgent: AgentDefinition | undefined;
  readonly agents: AgentDirectory;
  /** The todo list (the sql tool's todos) with each todo's agent; read from the file on a resume. */
  readonly todos = () => this.subagents.todos(this.options.database);
  /** sessionStart's additionalContext, for the first prompt. */
  private startContext: string | undefined;
  private ending: Promise<void> | undefined;
  private readonly goal: SessionObjective;
  readonly skills: AgentSessionOptions["skills"]; // issue 19: what the model is shown and loads, `/<skill>`, /skills

  constructor(private readonly options: AgentSessionOptions) {
    this.id = options.id;
    this.dir = options.dir;
    this.workspace = new SessionWorkspace({ ...options, emit: options.sink.emit, refreshSystemPrompt: () => this.runtime.refreshSystemPrompt() });
    this.preset = modePreset(options.mode);
    this.allTools = options.tools;
    this.toolbox = new SessionTools({
      tools: options.tools,
      mcpTools: () => options.mcp?.tools() ?? [],
      agentMcpTools: () => this.agentMcp.tools(),
      ...(options.toolFilter ? { toolFilter: options.toolFilter } : {}),
      preset: () => this.preset,
      selectedAgent: () => this.selectedAgent,
      taskTools: () => this.subagents.mainTools(),
      skillTool: () => this.skills.tool(options.sink.emit, this.selectedAgent?.skills),
      memoryTools: () => options.memory?.tools() ?? [], // memory
      canAnswerForms: () => options.interactions.canAnswer("elicitation"),
      canAnswerQuestions: () => options.interactions.canAnswer("user_input"),
    });
    this.turnCount = options.turnCount ?? 0;
    this.provider = options.provider;
    this.agentKit = new SessionAgents({
      options,
      metrics: this.metrics,
      toolbox: this.toolbox,
      subagents: () => this.subagents,
      provider: () => this.provider,
      cwd: () => this.cwd,
      nextTurnId: this.nextTurnId,
      unattended: () => this.preset.mode === "autopilot",
    });
    this.applyModeRules();
    this.agents = options.agents ?? new AgentCatalog({});
    const emit = options.sink.emit;
    (this.skills = options.skills).onChange(() => this.runtime.refreshSystemPrompt());
    this.goal = new SessionObjective(emit, options.objective);
    this.mcpGate = options.mcp ? new McpStartupGate(options.mcp, emit) : undefined;
    this.agentMcp = new SelectedAgentMcp(options.agentMcp, emit);
    options.sink.addInternal((event) => {
      if (event.type === "subagent.started" && event.data.executionMode === "background") this.metrics.backgroundAgents++;
    });
    this.subagents = new SessionSubagents({
      agents: () => this.agents,
      limits: options.subagentLimits ?? DEFAULT_SUBAGENT_LIMITS,
      availableModels: async (signal) => (this.provider.listModels ? this.provider.listModels(signal).catch(() => undefined) : undefined),
      sessionModel: () => this.provider.model,
      newChild: (spec, depth) => this.agentKit.child(spec, depth),
      notifyMain: (notification) => this.notify(notification),
      takeAllowance: (name) => options.memory?.takeAgentAllowance(name) === true, // memory: /subconscious run
      emit,
      sink: options.sink,
    });
    const { hooks } = options;
    if (hooks && (hooks.has("errorOccurred") || hooks.has("notification"))) options.sink.addInternal((event) => hooks.observe(event, emit));
    this.runtime = new AgentRuntime({
      emit,
      conversation: options.conversation,
      provider: () => this.provider,
      retry: options.retry,
      tools: () => this.tools(),
      toolEnvironment: (tools) => this.agentKit.toolEnvironment(tools, emit),
      preset: () => this.preset,
      maxContinues: options.maxAutopilotContinues,
      objective: () => this.goal.current,
      nextTurnId: this.nextTurnId,
      recordRequest: (model) => this.metrics.recordRequest(model),
      recordCall: (call) => this.metrics.recordCall(call),
      onTurnEnd: () => options.syncLog(),
      compaction: compactionOptions({ sessionDir: options.dir, settings: options.compaction, hooks, emit }),
      systemPrompt: () => this.systemPrompt(),
      userMessage: (input, extra) => this.userMessage(input, extra),
      awaitBackground: (signal) => this.subagents.awaitRunning(signal),
      ...(hooks?.has("userPromptSubmitted") || hooks?.has("sessionStart")
        ? { beforePrompt: (input: PromptInput, signal: AbortSignal) => this.beforePrompt(input, signal) }
        : {}),
      ...(hooks?.has("agentStop") ? { onStop: (active: boolean, signal: AbortSignal) => hooks.agentStop(emit, "end_turn", active, signal) } : {}),
      onRunEnd: (result) => {
        this.emitIdle(result.outcome === "aborted");
        // An agent answered while the main agent was finishing: with a person present it gets a turn for it.
        if (this.wakesForNotifications && result.outcome !== "aborted" && this.subagents.hasUnseenNotifications && this.runtime.queue.length === 0) {
          queueMicrotask(() => void this.answerNotifications().catch(() => undefined));
        }
      },
      runShell: async (command, signal) => {
        try {
          await runUserShellCommand(command, this.agentKit.toolEnvironment(new ToolSet(this.allTools), emit), signal);
        } finally {
          options.syncLog();
          this.emitIdle(false);
        }
      },
    });
  }

  /** The session's hooks (subagent and compaction work fire theirs through it). */
  get hooks(): SessionHooks | undefined {
    return this.options.hooks;
  }

  /** Runs the sessionStart hooks; what they add reaches the model with the first prompt. */
  async runStartHooks(source: "new" | "resume", initialPrompt?: string): Promise<void> {
    this.startContext = await this.options.hooks?.sessionStart(this.options.sink.emit, source, initialPrompt);
  }

  /** Resolves when the session has ended (after its sessionEnd hooks). */
  whenEnded(): Promise<void> {
    return this.ending ?? Promise.resolve();
  }

  get cwd(): string {
    return this.workspace.cwd;
  }

  get mode(): AgentMode {
    return this.preset.mode;
  }

  get model(): string {
    return this.provider.model;
  }

  /** A person can answer questions (the TUI), as opposed to `agent -p`. */
  get interactive(): boolean {
    return this.options.interactive;
  }

  /** The selected custom agent's name, when one is selected. */
  get agentName(): string | undefined {
    return this.selectedAgent?.name;
  }

  /** The agents one may run the session as (/agent), custom ones first; reads the agent files on first use. */
  selectableAgents(): { name: string; source: "builtin" | "user" | "repo"; description: string }[] {
    return this.agents.userInvocable().map(({ name, source, description }) => ({ name, source, description }));
  }

  /** Why the session's log could not be written, once it could not (the session then stops and refuses prompts). */
  get logFailure(): Error | undefined {
    return this.options.sink.logFailure;
  }

  get busy(): boolean {
    return this.runtime.busy || this.mcpGate?.busy === true;
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
    return this.workspace.activeInstructions.map((file) => file.path);
  }

  /** /context: how the main agent's prompt limit is used now, without a model call. */
  readonly contextUsage = () => reportContext(this.runtime.compactor, this.options.mcp?.tools() ?? [], this.options.sink.emit, this.options.memory?.board);

  /** The models the endpoint offers. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    return this.provider.listModels ? this.provider.listModels(signal) : [this.provider.model];
  }

  subscribe(listener: EventListener): () => void {
    return this.options.sink.subscribe(listener);
  }

  /** The tools offered in the current mode: the session's, the mode's extras, and the task tools. */
  tools(): ToolSet {
    return this.toolbox.forMainAgent();
  }

  /** The session's MCP servers, when any are configured (for /mcp). */
  get mcp(): McpManager | undefined {
    return this.options.mcp;
  }

  /** Where the session's MCP tools that require task support run: records of agentType "mcp-task" in the task registry. */
  get mcpTasks(): McpTaskHost {
    return mcpTaskHost(() => this.subagents, this.options.sink.emit);
  }

  /** Background agents of an earlier process of this session, read from its log (resume). */
  restoreAgents(events: readonly SessionEvent[]): void {
    this.subagents.restore(events);
  }

  /** Every background agent of this session (restored ones included), for /tasks. */
  get agentRecords(): readonly TaskRecord[] {
    return this.subagents.registry.list();
  }

  get backgroundShells(): BackgroundTasks["shells"] {
    return this.options.backgroundTasks().shells;
  }

  /** Running and idle background agents, for session.idle. */
  get backgroundAgents(): { agentId: string; agentType: string; description?: string }[] {
    return this.subagents.registry.active().map((record) => ({ agentId: record.id, agentType: record.agentType, description: record.description }));
  }

  /** The one way in: every change to the session is a command. */
  dispatch<C extends SessionCommand>(command: C): CommandResult<C>;
  dispatch(command: SessionCommand): CommandResult<SessionCommand> {
    if (isWorkspaceCommand(command)) return this.workspace.handle(command);
    if (isPermissionCommand(command)) return handlePermissionCommand(this.options.permissions, this.options.sink.emit, command);
    if (isSkillCommand(command)) return this.skills.handle(command, (input, delivery) => this.send(input, delivery)); // issue 19
    switch (command.type) {
      case "input":
        return routeInput({ session: this, emit: this.options.sink.emit, cwd: this.cwd }, command);
      case "send":
        return this.send({ prompt: command.prompt, attachments: command.attachments, source: command.source, typed: command.typed }, command.delivery);
      case "interrupt":
        this.subagents.stopSettling();
        this.mcpGate?.interrupt();
        return this.runtime.interrupt();
      case "respond":
        return this.options.interactions.respond(command.requestId, command.reply);
      case "set_mode":
        return this.setMode(command.mode);
      case "set_objective":
        return this.goal.set(command.objective);
      case "set_model":
        return this.setModel(command.model, command.reasoningEffort);
      case "select_agent":
        return this.selectAgent(command.name);
      case "run_shell":
        return this.runShellCommand(command.command);
      case "unqueue": {
        const item = this.runtime.queue.remove(command.id);
        return item ? { id: item.id, prompt: asTyped(item), ...(item.attachments ? { attachments: item.attachments } : {}) } : undefined;
      }
      case "flush_queue":
        return this.runtime.flushQueue();
      case "settle_background":
        return this.subagents.settle(command.timeoutMs, () => this.answerNotifications());
      case "message_agent":
        return this.subagents.registry.sendMessage(command.agentId, command.message);
      case "cancel_agent":
        return this.subagents.registry.cancel(command.agentId);
      case "stop_shell":
        return this.options.stopShell?.(command.shellId) ?? Promise.resolve(false);
      case "background_agent":
        return this.subagents.moveToBackground(command.toolCallId);
      case "compact":
        return this.runtime.compact(command.focus);
      case "log":
        return logMessage(this.options.sink.emit, command.level, command.message);
      case "shutdown":
        return this.shutdown(command.reason ? "error" : "routine", command.reason);
    }
  }

  private send(input: PromptInput, delivery?: "enqueue" | "immediate"): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error("The session is shut down."));
    if (this.logFailure) return Promise.resolve(sessionLogFailureResult(this.logFailure, this.id, this.options.sink.emit));
    const waiting = [this.mcpGate?.wait(input.prompt), this.agentMcp.ready(input.prompt)].filter((wait) => wait !== undefined);
    return waiting.length > 0 ? Promise.all(waiting).then(() => this.runtime.submit(input, delivery)) : this.runtime.submit(input, delivery);
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
  async runChild(spec: ChildAgentSpec, signal: AbortSignal): Promise<RunResult> {
    const child = this.agentKit.child(spec, 1);
    try {
      return await child.run(spec.prompt, signal);
    } finally {
      child.dispose();
    }
  }

  /** userPromptSubmitted, plus what sessionStart left for the first prompt (kept for the next one when this is blocked). */
  private async beforePrompt(input: PromptInput, signal: AbortSignal): Promise<PromptAdmission> {
    const submitted = (await this.options.hooks?.userPromptSubmitted(this.options.sink.emit, input.prompt, signal)) ?? {};
    if (submitted.blocked !== undefined) return submitted;
    const parts = [this.startContext, submitted.context].filter((part): part is string => part !== undefined);
    this.startContext = undefined;
    return parts.length > 0 ? { context: parts.join("\n\n") } : {};
  }

  /**
   * Something the model should know, delivered between turns (or at once when idle). With a person
   * present, an idle main agent gets a turn to act on it.
   */
  notify(notification: EventData<"system.notification">): void {
    const idle = !this.runtime.busy;
    this.runtime.notify(notification);
    if (idle && this.wakesForNotifications) void this.answerNotifications().catch(() => undefined);
  }

  /** A turn of the main agent with no user message: it answers the notifications the conversation ends with. */
  private answerNotifications(): Promise<RunResult> {
    return this.runtime.submit({ prompt: "", silent: true, source: "notification" });
  }

  /** With a person present, news for an idle main agent starts a turn; without one, settle_background does. */
  private get wakesForNotifications(): boolean {
    return this.options.interactive && !this.closed;
  }

  private readonly nextTurnId = (): string => String(++this.turnCount);

  /** The reasoning effort /model chose (the configured one until then). */
  private reasoningEffort: CurrentModel["reasoningEffort"];

  private setModel(model: string, effort?: string): void {
    const current = { provider: this.provider, reasoningEffort: this.reasoningEffort };
    const next = switchModel(current, model, effort, this.options.createProvider, this.options.sink.emit);
    if (next) ({ provider: this.provider, reasoningEffort: this.reasoningEffort } = next);
  }

  private selectAgent(name: string | null): string | undefined {
    if (name === null) {
      if (!this.selectedAgent) return undefined;
      this.selectedAgent = undefined;
      this.agentMcp.select(undefined);
      this.runtime.refreshSystemPrompt();
      this.options.sink.emit("subagent.deselected", {});
      return undefined;
    }
    const agent = selectableAgent(this.agents.list(), name);
    if (!agent) return unknownAgentMessage(name, this.agents.userInvocable());
    this.selectedAgent = agent;
    this.agentMcp.select(agent);
    this.runtime.refreshSystemPrompt();
    this.options.sink.emit("subagent.selected", { agentName: agent.name, agentDisplayName: agent.displayName, tools: agent.tools ? [...agent.tools] : null });
    this.skills.preload(agent, this.options.sink.emit, true); // issue 19: an agent's `skills:` start loaded
    return undefined;
  }

  private setMode(mode: AgentMode): void {
    if (mode === this.preset.mode) return;
    const previous = this.preset.mode;
    this.preset = modePreset(mode);
    this.applyModeRules();
    this.pendingNotices = [this.preset.switchNotice({ sessionDir: this.dir })];
    this.options.sink.emit("session.mode_changed", { previousMode: previous, newMode: mode });
    this.goal.modeChanged(mode);
  }

  /** A mode is a ruleset: its rules join the permission decision while it is on. */
  private applyModeRules(): void {
    this.options.permissions.setModeRules(this.preset.permissionRules?.({ sessionDir: realpathSync(this.dir) }));
  }

  /** Idle means nothing left to do (the SDK's sendAndWait waits for it): a queued prompt about to run defers it. */
  private emitIdle(aborted: boolean): void {
    if (this.runtime.queue.length > 0 && !this.runtime.queue.isPaused) return;
    this.options.sink.emit("session.idle", { backgroundTasks: this.options.backgroundTasks(), ...(aborted ? { aborted: true } : {}), mode: this.preset.mode });
  }

  private systemPrompt(): string | Promise<string> {
    return shapeSystemPrompt({
      context: this.workspace.context,
      os: describeOs(),
      shell: userShell(),
      date: new Date(),
      toolNames: this.tools().names,
      mode: this.preset,
      // Someone to ask (a person, or a client application that answers questions) changes how the model should work.
      interactive: this.options.interactive || this.options.interactions.canAnswer("user_input"),
      instructions: [
        ...this.workspace.activeInstructions,
        ...(this.options.mcp?.instructions() ?? []).map(({ server, text }) => ({ path: `mcp:${server}`, content: text })),
      ],
      sessionDir: this.dir,
      ...(this.selectedAgent ? { agent: { name: this.selectedAgent.name, prompt: this.selectedAgent.systemPrompt } } : {}),
      skills: this.skills.promptBlock(this.selectedAgent?.skills),
      contextBoard: this.options.memory?.boardText, // memory
      shape: this.options.systemPromptShape,
    });
  }

  private userMessage(input: PromptInput, extra: UserMessageExtra): EventData<"user.message"> {
    this.skills.beforePrompt(input, this.options.sink.emit); // a `/<skill>` joins the conversation just before the line typed
    const notices = this.pendingNotices;
    this.pendingNotices = [];
    return buildUserMessage(input, extra, { cwd: this.cwd, mode: this.preset.mode, notices });
  }

  /** Ends the session: interrupts work, writes session.shutdown, stops background shells, closes the log. */
  private shutdown(shutdownType: "routine" | "error" = "routine", errorReason?: string): void {
    if (this.closed) return;
    this.runtime.interrupt();
    this.subagents.stopAll();
    this.runtime.queue.clear();
    this.options.interactions.cancelAll();
    this.agentMcp.close();
    this.closed = true;
    // The log stays open until the sessionEnd hooks (and any still running) are done and reported.
    this.ending = finishSession({ ...this.options, model: this.model, metrics: this.metrics }, shutdownType, errorReason);
  }
}
