/**
 * The session's main agent: a runtime made like every subagent's (agent-runtimes.ts), and what only the main
 * agent has: the session's system prompt (the mode, the instructions, the selected agent, a face's shape),
 * the user message's dressing (a mode switch's notice, the mode), the hooks around a person's prompt
 * (prompt-hooks.ts), a person's `!cmd`, notifications that wake it when a person is there, and session.idle
 * when a run ends. A prompt first waits for the MCP servers it needs that are still starting.
 */
import { askAside } from "./aside-question.js";
import type { RunResult } from "../protocol/commands.js";
import type { BackgroundTasks, EventData, EventType } from "../protocol/events/index.js";
import { describeStatus } from "../tools/bash/index.js";
import { createAgentRuntime, toolEnvironment } from "./agent-runtimes.js";
import { describeOs, userShell } from "./environment.js";
import { McpStartupGate } from "./mcp-startup.js";
import { PromptHooks } from "./prompt-hooks.js";
import type { AgentRuntime, PromptInput } from "./runtime/agent-runtime.js";
import type { SessionControls } from "./session-controls.js";
import type { SessionServices } from "./session-services.js";
import type { SessionTools } from "./session-tools.js";
import { agentPromptWithSkills } from "./skills/skill-text.js";
import { shapeSystemPrompt } from "./system-prompt-shape.js";
import type { SessionSubagents } from "./tasks/session-subagents.js";
import { ToolSet } from "./tool-set.js";
import { buildUserMessage, type UserMessageExtra } from "./user-message.js";
import { runUserShellCommand } from "./user-shell-command.js";
import { limitsStatusToTell } from "./session-limits.js";
import { ClientCommands } from "./runtime/client-commands.js";
import { afterNextPoll } from "../util/after-next-poll.js";

/** What changes the system prompt: after these events the next prompt sends it again. */
const PROMPT_CHANGES = new Set<EventType>(["session.context_changed", "session.instructions_changed", "subagent.selected", "subagent.deselected"]);

export interface MainAgentParts {
  controls: SessionControls;
  toolbox: SessionTools;
  subagents: SessionSubagents;
}

export class MainAgent {
  readonly runtime: AgentRuntime;
  /** Commands handed to the application that runs them (client-commands.ts). */
  readonly clientCommands: ClientCommands;
  private readonly mcpGate: McpStartupGate | undefined;
  private readonly promptHooks: PromptHooks;
  private stopped = false;
  private readonly stopAnnouncing: () => void;

  constructor(
    private readonly services: SessionServices,
    private readonly parts: MainAgentParts,
  ) {
    const { sink, hooks } = services;
    const { controls, subagents } = parts;
    const emit = sink.emit;
    this.mcpGate = services.mcp ? new McpStartupGate(services.mcp, emit) : undefined;
    this.promptHooks = new PromptHooks(hooks, emit);
    const clientCommands = (this.clientCommands = new ClientCommands(emit));
    this.runtime = createAgentRuntime(services, {
      emit,
      conversation: services.conversation,
      provider: () => controls.provider,
      tools: () => parts.toolbox.forMainAgent(),
      preset: () => controls.preset,
      maxContinues: services.maxAutopilotContinues,
      objective: () => controls.goal.current,
      systemPrompt: () => this.systemPrompt(),
      userMessage: (input, extra) => this.userMessage(input, extra),
      awaitBackground: (signal) => subagents.awaitRunning(signal),
      // With a person at this process's keyboard, a key typed right after Enter is read and drawn before the request is built.
      ...(services.interactive ? { beforeRequests: afterNextPoll } : {}),
      ...this.promptHooks.runtimeOptions(),
      onRunEnd: (result) => {
        this.emitIdle(result.outcome === "aborted");
        // An agent answered while the main agent was finishing: with a person present it gets a turn for it.
        if (this.wakesForNotifications && result.outcome !== "aborted" && subagents.hasUnseenNotifications && this.runtime.queue.length === 0) {
          queueMicrotask(() => void this.answerNotifications().catch(() => undefined));
        }
      },
      handOffCommand: (command, signal) => clientCommands.handOff(command, signal),
      runShell: async (command, signal) => {
        try {
          await runUserShellCommand(command, toolEnvironment(services, new ToolSet(services.tools), emit), signal);
        } finally {
          services.syncLog();
          this.emitIdle(false);
        }
      },
    });
    sink.addInternal((event) => {
      if (!event.agentId && PROMPT_CHANGES.has(event.type)) this.runtime.refreshSystemPrompt();
    });
    // Memory's board is in the system prompt too (/memory on|off, a stored memory), and the skill list (/skills).
    services.memory?.onChange(() => this.runtime.refreshSystemPrompt());
    services.skills.onChange(() => this.runtime.refreshSystemPrompt());
    // The model hears when a command it left running in the background ends, without polling for it.
    this.stopAnnouncing = services.shells.onBackgroundExit((shell) =>
      this.notify({
        kind: "shell_completed",
        content: `Background shell ${shell.shellId} (${shell.description}) finished: ${describeStatus(shell.status)}. ${shell.unreadBytes > 0 ? `It has ${shell.unreadBytes} bytes of unread output; read_bash shows them.` : "Its output has been read."}`,
      }),
    );
  }

  /** A prompt for the main agent; it waits for the MCP servers it needs that are still starting. */
  submit(input: PromptInput, delivery?: "enqueue" | "immediate"): Promise<RunResult> {
    const gated = this.mcpGate?.wait(input.prompt);
    // The prompt's first event comes after the wait: until then this says the session is busy (Esc ends the wait).
    if (gated) this.services.sink.emit("session.mcp_wait_started", {});
    const waiting = [gated, this.parts.controls.agentMcp.ready(input.prompt)].filter((wait) => wait !== undefined);
    return waiting.length > 0 ? Promise.all(waiting).then(() => this.runtime.submit(input, delivery)) : this.runtime.submit(input, delivery);
  }

  /** Working, or waiting for MCP servers before a prompt (an interrupt ends either). */
  get busy(): boolean {
    return this.runtime.busy || this.mcpGate?.busy === true;
  }

  /** Stops the running prompt, and the wait for MCP servers of prompts not sent yet (they go on with the tools there are). */
  interrupt(): void {
    this.mcpGate?.interrupt();
    this.runtime.interrupt();
  }

  /** Runs the sessionStart hooks; what they add reaches the model with the first prompt. */
  async runStartHooks(source: "new" | "resume", initialPrompt?: string): Promise<void> {
    await this.promptHooks.sessionStart(source, initialPrompt);
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
  answerNotifications(): Promise<RunResult> {
    return this.runtime.submit({ prompt: "", silent: true, source: "notification" });
  }

  /** Running and idle background agents, and background shells, for session.idle. */
  backgroundTasks(): BackgroundTasks {
    const agents = this.parts.subagents.registry
      .active()
      .map((record) => ({ agentId: record.id, agentType: record.agentType, description: record.description }));
    return { agents, shells: this.services.shells.backgroundShells() };
  }

  /** Stops a background shell (its whole process group); false when there is no such running shell. */
  async stopShell(shellId: string): Promise<boolean> {
    const { shells } = this.services;
    const shell = shells.get(shellId);
    if (!shell?.running) return false;
    await shells.stop(shell);
    return true;
  }

  /** The session is ending: no more turns for notifications. */
  stop(): void {
    this.stopped = true;
  }

  /** The session has ended: background shells' ends are no longer announced. */
  release(): void {
    this.stopAnnouncing();
  }

  /** With a person present, news for an idle main agent starts a turn; without one, settle_background does. */
  private get wakesForNotifications(): boolean {
    return this.services.interactive && !this.stopped;
  }

  /** Idle means nothing left to do (the SDK's sendAndWait waits for it): a queued prompt about to run defers it. */
  private emitIdle(aborted: boolean): void {
    const { queue } = this.runtime;
    if (queue.length > 0 && !queue.isPaused) return;
    this.services.sink.emit("session.idle", {
      backgroundTasks: this.backgroundTasks(),
      ...(aborted ? { aborted: true } : {}),
      mode: this.parts.controls.preset.mode,
    });
  }

  /** A question beside the conversation (ask_aside): the model's answer, nothing recorded. */
  async askAside(question: string): Promise<string> {
    return askAside(question, { provider: this.parts.controls.provider, retry: this.services.retry, systemPrompt: await this.systemPrompt() });
  }

  private systemPrompt(): string | Promise<string> {
    const { services } = this;
    const { controls } = this.parts;
    const { workspace } = services;
    const agent = controls.selectedAgent;
    return shapeSystemPrompt({
      context: workspace.context,
      os: describeOs(),
      shell: userShell(),
      date: new Date(),
      toolNames: this.parts.toolbox.forMainAgent().names,
      mode: controls.preset,
      // Someone to ask (a person, or a client application that answers questions) changes how the model should work.
      interactive: services.interactive || services.interactions.canAnswer("user_input"),
      instructions: [
        ...workspace.activeInstructions,
        ...(services.mcp?.instructions() ?? []).map(({ server, text }) => ({ path: `mcp:${server}`, content: text })),
      ],
      sessionDir: services.dir,
      ...(agent ? { agent: { name: agent.name, prompt: agentPromptWithSkills(agent.systemPrompt, services.skills.invoked(), agent.skills) } } : {}),
      contextBoard: services.memory?.boardText,
      skills: services.skills.promptBlock(agent?.skills),
      shape: services.systemPromptShape,
    });
  }

  private userMessage(input: PromptInput, extra: UserMessageExtra): EventData<"user.message"> {
    const { controls } = this.parts;
    this.services.skills.beforePrompt(input, this.services.sink.emit); // a `/<skill>` joins the conversation just before the line typed
    const limitsStatus = limitsStatusToTell(this.services.state.state);
    return buildUserMessage(input, limitsStatus ? { ...extra, limitsStatus } : extra, {
      cwd: this.services.workspace.cwd,
      mode: controls.preset.mode,
      notices: controls.takeNotices(),
    });
  }
}
