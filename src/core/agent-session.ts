/**
 * The engine's handle on one session: commands go in through `dispatch`, events come out through
 * `subscribe`. A facade: the session's services and parts are built by session-assembly.ts; here each
 * command is routed to the part that handles it (the main agent's runtime, the controls, the subagents, the
 * workspace), and the session ends. Over 300 lines: beside the routing it answers the few reads a face may
 * make that no event carries (agents, MCP servers, directories: SessionView), each a line or two.
 */
import type { CommandResult, RunResult, SessionCommand } from "../protocol/commands.js";
import type { AgentMode, BackgroundTasks, EventData } from "../protocol/events/index.js";
import type { McpManager, McpTaskHost, ServerStatus } from "../mcp/index.js";
import type { AgentDefinition } from "./agents/agent-catalog.js";
import type { ChildAgentSpec } from "./child-agent.js";
import { attributeContext, reportContext } from "./compaction/session-compaction.js";
import { heaviestMessages } from "./compaction/context-attribution.js";
import type { EventListener } from "./event-sink.js";
import { routeInput } from "./input-router.js";
import type { SessionState } from "./state/session-state.js";
import { asTyped, promptOf, type PromptInput } from "./runtime/agent-runtime.js";
import type { SessionParts } from "./session-assembly.js";
import type { SessionHooks } from "./session-hooks.js";
import type { SessionMetrics } from "./session-metrics.js";
import type { SessionServices } from "./session-services.js";
import type { AgentDirectory } from "./tasks/agent-directory.js";
import { mcpTaskHost } from "./tasks/mcp-tasks.js";
import type { TaskRecord } from "./tasks/task-registry.js";
import type { ToolSet } from "./tool-set.js";
import { finishSession } from "./session-shutdown.js";
import { isWorkspaceCommand, type SessionWorkspace } from "./session-admin/session-workspace.js";
import { isLocationCommand } from "./permission-locations.js";
import { logMessage } from "./client-log.js";
import { joinClient } from "./client-join.js";
import { writePlan } from "./plan/plan-document.js";
import { sessionLogFailureResult } from "./session-log-failure.js";
import { setSessionLimits } from "./session-limits.js";
import { isSkillCommand } from "./skills/session-skills.js";

export type { SessionServices } from "./session-services.js";

export class AgentSession {
  readonly id: string;
  readonly dir: string;
  readonly metrics: SessionMetrics;
  /** What /cwd, /add-dir, /instructions, /rename and /session delete change. */
  readonly workspace: SessionWorkspace;
  readonly agents: AgentDirectory;
  readonly skills: SessionServices["skills"]; // issue 19: what the model is shown and loads, `/<skill>`, /skills, /plugin
  private closed = false;
  private ending: Promise<void> | undefined;

  constructor(
    private readonly services: SessionServices,
    private readonly parts: SessionParts,
  ) {
    this.id = services.id;
    this.dir = services.dir;
    this.metrics = services.metrics;
    this.workspace = services.workspace;
    this.agents = services.agents;
    this.skills = services.skills;
  }

  /** The todo list (the sql tool's todos) with each todo's agent; read from the file on a resume. */
  readonly todos = () => this.parts.subagents.todos(this.services.database);

  /** The session's hooks (subagent and compaction work fire theirs through it). */
  get hooks(): SessionHooks | undefined {
    return this.services.hooks;
  }

  /** Runs the sessionStart hooks; what they add reaches the model with the first prompt. */
  runStartHooks(source: "new" | "resume", initialPrompt?: string): Promise<void> {
    return this.parts.main.runStartHooks(source, initialPrompt);
  }

  /** Resolves when the session has ended (after its sessionEnd hooks). */
  whenEnded(): Promise<void> {
    return this.ending ?? Promise.resolve();
  }

  get cwd(): string {
    return this.workspace.cwd;
  }

  get mode(): AgentMode {
    return this.parts.controls.preset.mode;
  }

  get model(): string {
    return this.parts.controls.provider.model;
  }

  /** A person can answer questions (the TUI), as opposed to `agent -p`. */
  get interactive(): boolean {
    return this.services.interactive;
  }

  /** The selected custom agent's name, when one is selected. */
  get agentName(): string | undefined {
    return this.parts.controls.selectedAgent?.name;
  }

  /** The agents one may run the session as (/agent), custom ones first; reads the agent files on first use. */
  selectableAgents(): { name: string; source: "builtin" | "user" | "repo"; description: string }[] {
    return this.agents.userInvocable().map(({ name, source, description }) => ({ name, source, description }));
  }

  /** Why the session's log could not be written, once it could not (the session then stops and refuses prompts). */
  get logFailure(): Error | undefined {
    return this.services.sink.logFailure;
  }

  /** What the session is now, as every face sees it (a new snapshot on every change). */
  get state(): SessionState {
    return this.services.state.state;
  }

  get busy(): boolean {
    return this.parts.main.busy;
  }

  /** The custom instruction files in the system prompt. */
  get instructionPaths(): string[] {
    return this.workspace.activeInstructions.map((file) => file.path);
  }

  /** The tools the main agent is offered now, as the model sees them (the SDK's tools.getCurrentMetadata). */
  readonly currentTools = () => this.parts.toolbox.forMainAgent().schemas();

  /** /context: how the main agent's prompt limit is used now, without a model call. */
  readonly contextUsage = () =>
    reportContext(this.parts.main.runtime.compactor, this.services.mcp?.tools() ?? [], this.services.sink.emit, this.services.memory?.board);

  /** The SDK's metadata.getContextAttribution: /context's breakdown by source; undefined before the main agent has a window. */
  readonly contextAttribution = () => attributeContext(this.parts.main.runtime.compactor, this.services.mcp, this.workspace.activeInstructions, this.dir);

  /** The SDK's metadata.getContextHeaviestMessages: the largest messages in the window, largest first. */
  readonly heaviestMessages = (limit?: number) => {
    const { compactor } = this.parts.main.runtime;
    return compactor
      ? heaviestMessages(
          compactor.contents(() => false),
          limit,
        )
      : { totalTokens: 0, messages: [] };
  };

  /** The models the endpoint offers. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    const { provider } = this.parts.controls;
    return provider.listModels ? provider.listModels(signal) : [provider.model];
  }

  subscribe(listener: EventListener): () => void {
    return this.services.sink.subscribe(listener);
  }

  /** The tools offered in the current mode: the session's, the mode's extras, and the task tools. */
  tools(): ToolSet {
    return this.parts.toolbox.forMainAgent();
  }

  /** The session's MCP servers, when any are configured (for /mcp). */
  get mcp(): McpManager | undefined {
    return this.services.mcp;
  }

  /** The directories tools may use without asking (the first is the working directory), and the checks a client asks of a path. */
  directories(): { primary: string; list: string[]; allows(path: string): boolean; contains(path: string): boolean } {
    const { workspace } = this;
    return {
      primary: this.cwd,
      list: workspace.allowedDirectories.map((dir) => dir.path),
      allows: (path) => workspace.allows(path),
      contains: (path) => workspace.contains(path),
    };
  }

  /** Every agent's definition, custom and built-in (read again when their files changed): no event lists them. */
  agentDefinitions(): readonly AgentDefinition[] {
    return this.agents.list();
  }

  /** The MCP servers as a face may read them (plain data), and the tools one of them offers: no event carries those. */
  mcpServers(): { servers: ServerStatus[]; running(name: string): boolean; toolsOf(name: string): ReturnType<McpManager["toolsOf"]> } | undefined {
    const mcp = this.services.mcp;
    return mcp && { servers: mcp.list(), running: (name) => mcp.isRunning(name), toolsOf: (name) => mcp.toolsOf(name) };
  }

  /** Where the session's MCP tools that require task support run: records of agentType "mcp-task" in the task registry. */
  get mcpTasks(): McpTaskHost {
    return mcpTaskHost(() => this.parts.subagents, this.services.sink.emit);
  }

  /** Background agents of earlier processes of this session, as the state folded them from the log (resume). */
  restoreAgents(): void {
    this.parts.subagents.restore(this.state.agents);
  }

  /** Every background agent of this session (restored ones included), for /tasks. */
  get agentRecords(): readonly TaskRecord[] {
    return this.parts.subagents.registry.list();
  }

  get backgroundShells(): BackgroundTasks["shells"] {
    return this.services.shells.backgroundShells();
  }

  /** Running and idle background agents, for session.idle. */
  get backgroundAgents(): BackgroundTasks["agents"] {
    return this.parts.main.backgroundTasks().agents;
  }

  /** The one way in: every change to the session is a command. */
  dispatch<C extends SessionCommand>(command: C): CommandResult<C>;
  dispatch(command: SessionCommand): CommandResult<SessionCommand> {
    if (isWorkspaceCommand(command)) return this.workspace.handle(command);
    if (isLocationCommand(command)) return this.services.locations.handle(command);
    if (isSkillCommand(command)) return this.services.skills.handle(command, (input, delivery) => this.send(input, delivery));
    if (this.services.rewind.handles(command)) return this.services.rewind.handle(command, this.services.sink.emit, this);
    const { main, controls, subagents } = this.parts;
    const { runtime } = main;
    switch (command.type) {
      case "input":
        return routeInput({ session: this, emit: this.services.sink.emit, cwd: this.cwd }, command);
      case "send":
        return this.send(promptOf(command), command.delivery);
      case "interrupt":
        subagents.stopSettling();
        return main.interrupt();
      case "respond":
        return this.services.interactions.respond(command.requestId, command.reply);
      case "set_mode":
        return controls.setMode(command.mode);
      case "set_objective":
        return controls.goal.set(command.objective);
      case "set_session_limits":
        return setSessionLimits(this.services.state.state, this.services.sink.emit, command.limits);
      case "set_model":
        return controls.setModel(command.model, command.reasoningEffort, command.reconnect);
      case "select_agent":
        return controls.selectAgent(command.name);
      case "set_allow_all":
        return controls.setAllowAll(command.on, command.only);
      case "reset_allowed_tools":
        return controls.resetAllowedTools();
      case "change_approvals":
        return this.services.permissions.changeApprovals(command.add ?? [], command.remove ?? []);
      case "run_shell":
        return this.runShellCommand(command.command);
      case "queue_client_command":
        return this.send({ prompt: command.command, clientCommand: true }, "enqueue");
      case "answer_client_command":
        return main.clientCommands.answer(command.requestId, { handled: command.handled, stopProcessingQueue: command.stopProcessingQueue === true });
      case "unqueue": {
        const item = runtime.queue.remove(command.id);
        return item ? { id: item.id, prompt: asTyped(item), ...(item.attachments ? { attachments: item.attachments } : {}) } : undefined;
      }
      case "flush_queue":
        return runtime.flushQueue();
      case "settle_background":
        return subagents.settle(command.timeoutMs, () => main.answerNotifications());
      case "message_agent":
        return subagents.registry.sendMessage(command.agentId, command.message);
      case "cancel_agent":
        return subagents.registry.cancel(command.agentId);
      case "stop_shell":
        return main.stopShell(command.shellId);
      case "background_agent":
        return subagents.moveToBackground(command.toolCallId);
      case "set_subagent_settings":
        return subagents.setSettings(command.settings);
      case "compact":
        return runtime.compact(command.focus);
      case "log":
        return logMessage(this.services.sink.emit, command.level, command.message);
      case "write_plan":
        return writePlan(this.dir, this.services.sink.emit, command.content);
      case "shutdown":
        return this.shutdown(command.reason ? "error" : "routine", command.reason);
      case "ask_aside":
        return main.askAside(command.question);
      case "join_client":
        return joinClient(this.services, command);
      case "leave_client":
        return this.services.joinedTools?.leave(command.client);
    }
  }

  private send(input: PromptInput, delivery?: "enqueue" | "immediate"): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error("The session is shut down."));
    if (this.logFailure) return Promise.resolve(sessionLogFailureResult(this.logFailure, this.id, this.services.sink.emit));
    return this.parts.main.submit(input, delivery);
  }

  /** `!cmd`: runs a command for the user (after what is queued); its output goes to the model with the next prompt. */
  private async runShellCommand(command: string): Promise<void> {
    if (this.closed) throw new Error("The session is shut down.");
    await this.parts.main.runtime.submit({ prompt: command, shell: true });
  }

  /**
   * Runs a subagent to its end inside a tool call of the main agent: its own conversation and system
   * prompt, the session's provider factory, permission gate, broker and log; interrupting the session
   * interrupts it.
   */
  async runChild(spec: ChildAgentSpec, signal: AbortSignal): Promise<RunResult> {
    const child = this.parts.newChild(spec, 1);
    try {
      return await child.run(spec.prompt, signal);
    } finally {
      child.dispose();
    }
  }

  /**
   * Something the model should know, delivered between turns (or at once when idle). With a person
   * present, an idle main agent gets a turn to act on it.
   */
  notify(notification: EventData<"system.notification">): void {
    this.parts.main.notify(notification);
  }

  /** Ends the session: interrupts work, writes session.shutdown, stops background shells, closes the log. */
  private shutdown(shutdownType: "routine" | "error" = "routine", errorReason?: string): void {
    if (this.closed) return;
    const { main, controls, subagents } = this.parts;
    main.runtime.interrupt();
    subagents.stopAll();
    main.runtime.queue.clear();
    this.services.interactions.cancelAll();
    controls.agentMcp.close();
    this.closed = true;
    main.stop();
    // The log stays open until the sessionEnd hooks (and any still running) are done and reported.
    this.ending = finishSession(
      {
        sink: this.services.sink,
        ...(this.services.hooks ? { hooks: this.services.hooks } : {}),
        metrics: this.metrics,
        conversation: this.services.conversation,
        model: this.model,
        dispose: () => {
          main.release();
          this.services.release();
        },
      },
      shutdownType,
      errorReason,
    );
  }
}
