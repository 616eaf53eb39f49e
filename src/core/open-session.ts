/**
 * Opens a session: a new one (session.start), or an existing one from its log (session.resume), wiring the
 * log writer, the conversation fold, the tools and the metadata file around an AgentSession.
 */
import type { ProviderConfig } from "../config/provider-config.js";
import { realpathSync } from "node:fs";
import path from "node:path";
import { RememberedApprovals } from "../permissions/permissions-config.js";
import { PathGate } from "../permissions/paths.js";
import type { PermissionFlags } from "../permissions/policy.js";
import type { Rule } from "../permissions/rules.js";
import type { ChatProvider } from "../provider/types.js";
import type { ProviderOptions } from "../provider/session-providers.js";
import { EventLogWriter } from "../session/event-log-writer.js";
import type { EventLog } from "../session/event-log-reader.js";
import { MetadataKeeper } from "../session/metadata-keeper.js";
import { readMetadata } from "../session/session-metadata.js";
import { acquireSessionLock } from "../session/session-lock.js";
import { isValidSessionId, type SessionStore } from "../session/session-store.js";
import { describeStatus, ShellManager } from "../tools/bash/index.js";
import { createBuiltinTools } from "../tools/builtin-tools.js";
import { createSqlTool, SessionDatabase } from "../tools/sql/index.js";
import type { ToolBackends } from "../tools/backends.js";
import type { AnyTool } from "../tools/define-tool.js";
import { AgentSession, type AgentSessionOptions } from "./agent-session.js";
import { fleetDeployedMessage } from "./fleet/fleet-prompt.js";
import { InteractionBroker } from "./interaction-broker.js";
import { planFile } from "./modes.js";
import { SESSION_LOG_ERROR, sessionLogFailureMessage } from "./session-log-failure.js";
import { createExitPlanModeTool } from "./plan/exit-plan-mode.js";
import { restoredObjective } from "./orchestrate/objective.js";
import { researchFolder } from "./orchestrate/research-folder.js";
import type { AgentDirectory } from "./tasks/agent-directory.js";
import type { SubagentLimits } from "./tasks/subagent-host.js";
import type { PermissionAdvice } from "./permission-advice.js";
import { PermissionBroker } from "./permission-broker.js";
import { AgentCatalog, reportAgentFileProblems, restoreSelectedAgent, type AgentDefinition } from "./agents/agent-catalog.js";
import { priorUsage } from "./usage/prior-usage.js";
import { Conversation } from "./conversation.js";
import { loadCustomInstructions, type InstructionFile } from "./custom-instructions.js";
import { workingDirectoryContext } from "./environment.js";
import type { AgentMode, BackgroundTasks, SessionEvent, SessionEventOf } from "../protocol/events/index.js";
import type { InteractionKind } from "../protocol/interactions.js";
import { EventSink, type EventListener } from "./event-sink.js";
import type { HookSet } from "../hooks/hook-set.js";
import { createAgentMcpManager, createMcpManager, type ElicitationAsk, type McpSessionOptions, type McpTaskHost } from "../mcp/index.js";
import type { AgentMcpFactory } from "./agent-mcp.js";
import type { SystemPromptShape } from "./system-prompt-shape.js";
import { SessionMemory, type SessionMemoryOptions } from "../memory/session-memory.js";

declare const AGENT_VERSION: string;
export const agentVersion = (): string => (typeof AGENT_VERSION === "string" ? AGENT_VERSION : "0.0.0-dev");

export interface OpenSessionOptions {
  store: SessionStore;
  agentHome: string;
  /** Copilot CLI's home, read (never written) for agents, MCP servers and trusted folders; ours wins. */
  copilotHome?: string;
  /** Folders trusted for this session only (the TUI's "this session" answer): their repository programs may run. */
  trustedThisSession?: readonly string[];
  cwd: string;
  provider: ChatProvider;
  /** Makes a provider for another model, for /model. */
  createProvider?(model: string, options?: ProviderOptions): ChatProvider;
  subagentLimits?: SubagentLimits;
  /** The agents (a test's own); the catalog of built-in, user and repo agent files when absent. */
  agents?: AgentDirectory;
  providerConfig: ProviderConfig;
  /** The mode asked for; for a resumed session, undefined keeps the mode it had. */
  mode?: AgentMode;
  maxAutopilotContinues: number;
  interactive: boolean;
  permissions: SessionPermissions;
  name?: string;
  customInstructions: boolean;
  /** Resume this existing session instead of creating one. */
  resumeId?: string;
  /** Resume without a session.resume event (a client's reconnect: the SDK's suppressResumeEvent). */
  silentResume?: boolean;
  /** The id for a new session (a client may choose it); a fresh UUID when absent. */
  sessionId?: string;
  /**
   * Who can answer which questions; by default a person can answer everything in an interactive session
   * and nothing in a headless one. A server face answers per client handler.
   */
  canAnswer?(kind: InteractionKind): boolean;
  /** The face's words for what would allow a refused call (the CLI names its flags). */
  explainAdvice?(advice: PermissionAdvice): string;
  /** `--plan --autopilot`: with nobody to review it, a finished plan is accepted into autopilot and implemented. */
  autoAcceptPlan?: boolean;
  /** Instructions beyond the instruction files (a client's system message), appended to the system prompt. */
  extraInstructions?: readonly InstructionFile[];
  /** A face's say over the system prompt (replace it, or edit its parts). */
  systemPromptShape?: SystemPromptShape;
  /** Agents a client defined for this session, beside the agent files. */
  extraAgents?: readonly AgentDefinition[];
  /** Built-in agents left out of this session (an SDK client's excludedBuiltinAgents). */
  excludedBuiltinAgents?: readonly string[];
  /** Tools the default agent is not offered, though a custom agent may be (an SDK client's defaultAgent.excludedTools). */
  defaultAgentExcludedTools?: readonly string[];
  /** Tools beyond the built-in ones (a face's or a test's own). */
  extraTools?: readonly AnyTool[];
  /** MCP servers beyond $AGENT_HOME/mcp-config.json and the repository's files, and which to leave out. */
  mcp?: McpSessionOptions;
  /** Subscribers attached before the first event (session.start / session.resume) is emitted. */
  listeners?: readonly EventListener[];
  /** The hooks loaded for this session (the face resolved trust and --no-hooks); none when absent. */
  hooks?: HookSet;
  /** The prompt the session was started with (`-p`), for the sessionStart hook. */
  initialPrompt?: string;
  /** Where the tools read and write files and run commands (a client that offers to); local when absent. */
  toolBackends?: ToolBackends;
  /** settings.json `compaction`. */
  compaction?: AgentSessionOptions["compaction"];
  /** Memory (src/memory): on or off at the start, settings.json's `memory`, how /memory on|off is remembered. None when absent. */
  memory?: Pick<SessionMemoryOptions, "enabled" | "settings" | "persist">;
  /**
   * The interactive session that started this one detached as it ended (the memory consolidation): named in
   * session.start, and the transcript memory's session_digest reads.
   */
  detachedFrom?: string;
}

/** The permission setup of a session: flags, the rules from every source, floor checks switched off. */
export interface SessionPermissions {
  flags: PermissionFlags;
  rules: readonly Rule[];
  disabledFloorChecks: readonly string[];
  /** settings.json `mcp.autoApproveReadOnly`, as given (true: every server; a list: those servers). */
  mcpReadOnly?: boolean | readonly string[];
}

export interface ResumeReport {
  eventCount: number;
  skippedLines: number;
  unknownEvents: number;
  repairedToolCalls: number;
}

function restoredMode(events: readonly SessionEvent[]): AgentMode {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as SessionEvent;
    if (event.type === "session.mode_changed") return event.data.newMode;
    if (event.type === "session.start" && event.data.mode) return event.data.mode;
  }
  return "interactive";
}

export interface OpenedSession {
  session: AgentSession;
  resume?: ResumeReport;
  /** The events the session's log already held (a resumed session), for showing its history. */
  history: readonly SessionEvent[];
}

/** Agents the log shows starting but never ending: the process died while they ran. */
function unfinishedAgents(events: readonly SessionEvent[]): SessionEventOf<"subagent.started">[] {
  const ended = new Set<string>();
  for (const event of events) if (event.type === "subagent.completed" || event.type === "subagent.failed") ended.add(event.data.toolCallId);
  // One per task call: a sync agent moved to the background was announced twice (sync, then background).
  const unfinished = new Map<string, SessionEventOf<"subagent.started">>();
  for (const event of events) if (event.type === "subagent.started" && !ended.has(event.data.toolCallId)) unfinished.set(event.data.toolCallId, event);
  return [...unfinished.values()];
}

export async function openSession(options: OpenSessionOptions): Promise<OpenedSession> {
  const { store } = options;
  if (options.sessionId !== undefined && !options.resumeId && store.exists(options.sessionId)) {
    throw new Error(`A session with id ${options.sessionId} already exists; resume it instead.`);
  }
  const id = options.resumeId ?? store.create(options.sessionId);
  const dir = store.dirOf(id);
  // One writer per session: taken before the log is read, so what is read is what this process continues.
  const lock = acquireSessionLock(dir, id);
  try {
    return await openLocked(options, id, dir, lock.release);
  } catch (error) {
    lock.release();
    throw error;
  }
}

async function openLocked(options: OpenSessionOptions, id: string, dir: string, releaseLock: () => void): Promise<OpenedSession> {
  const { store, provider } = options;
  const context = workingDirectoryContext(options.cwd);
  // The reader (and with it every event's schema) loads only to resume: a new session never reads a log.
  const log: EventLog | undefined = options.resumeId ? (await import("../session/event-log-reader.js")).readEventLog(store.eventsFileOf(id)) : undefined;
  const writer = new EventLogWriter(store.eventsFileOf(id));
  const sink = new EventSink(writer, { lastPersistedId: log?.lastEventId ?? null });
  const conversation = new Conversation();
  for (const event of log?.events ?? []) conversation.apply(event);
  sink.addInternal((event) => conversation.apply(event));

  const now = new Date().toISOString();
  const previous = options.resumeId ? await readMetadata(dir) : undefined;
  const keeper = new MetadataKeeper(dir, {
    id,
    cwd: previous?.cwd ?? options.cwd,
    name: options.name ?? previous?.name,
    userNamed: options.name !== undefined || previous?.userNamed === true,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    firstPrompt: previous?.firstPrompt,
    eventCount: log ? log.events.length + log.unknownEvents : 0,
    model: provider.model,
    gitRoot: context.gitRoot,
    branch: context.branch,
  });
  sink.addInternal(keeper.onEvent);
  for (const listener of options.listeners ?? []) sink.subscribe(listener);

  const { flags } = options.permissions;
  const realCwd = realpathSync(options.cwd);
  const interactions = new InteractionBroker({ canAnswer: options.canAnswer ?? (() => options.interactive) });
  const permissions = new PermissionBroker({
    policy: {
      rules: options.permissions.rules,
      allowAllTools: flags.allowAllTools,
      allowAllPaths: flags.allowAllPaths,
      allowAllUrls: flags.allowAllUrls,
      disabledFloorChecks: new Set(options.permissions.disabledFloorChecks),
      // The session's own files (research reports) are written without asking, as a rule of the policy.
      ownFolders: [researchFolder(realpathSync(dir))],
      ...mcpReadOnlyPolicy(options.permissions.mcpReadOnly),
    },
    environment: {
      cwd: options.cwd,
      env: process.env,
      gate: new PathGate({ cwd: options.cwd, addDirs: flags.addDir, extraRoots: [dir], disallowTempDir: flags.disallowTempDir }),
    },
    remembered: new RememberedApprovals(options.agentHome, realCwd),
    interactions,
    ...(options.explainAdvice ? { explainAdvice: options.explainAdvice } : {}),
    ...(flags.allowAllSources ? { allowAllSources: flags.allowAllSources } : {}),
  });
  if (log) permissions.restoreChangedFiles(log.events);

  const shells = new ShellManager();
  // One database per session, shared by all its agents; sql.js loads on the first sql call, not here.
  const database = new SessionDatabase(path.join(dir, "session.db"));
  database.onChange(() => sink.emit("session.todos_changed", {}));
  const mcpOptions = {
    env: process.env,
    cwd: options.cwd,
    secretEnvVars: options.mcp?.secretEnvVars ?? [],
    clientVersion: agentVersion(),
    allowInstructions: options.mcp?.allowAllInstructions === true,
    // A server's form goes to whoever answers questions; with nobody to ask, the broker declines at once.
    elicit: async ({ serverName, message, requestedSchema }: ElicitationAsk, signal: AbortSignal) => {
      const { reply } = await interactions.ask(
        "elicitation",
        { message, requestedSchema, elicitationSource: serverName, mode: "form" },
        { emit: sink.emit, signal },
      );
      return reply.action === "accept"
        ? { action: "accept" as const, ...(reply.content ? { content: reply.content as Record<string, string | number | boolean | string[]> } : {}) }
        : { action: reply.action };
    },
    warn: (message: string) => sink.emit("session.warning", { warningType: "mcp", message }),
    // Tools that require task support run as background records of the session (called only once it exists).
    tasks: { start: (...args) => session.mcpTasks.start(...args) } satisfies McpTaskHost,
  };
  // Where folder trust is read from: every program a file names (repository MCP files, agent files' servers) asks it.
  const trust = {
    agentHome: options.agentHome,
    ...(options.copilotHome ? { copilotHome: options.copilotHome } : {}),
    ...(options.trustedThisSession ? { trustedThisSession: options.trustedThisSession } : {}),
  };
  const mcp = createMcpManager(
    { ...trust, cwd: options.cwd, workspace: context.gitRoot, additional: options.mcp?.additional, disabled: options.mcp?.disabled },
    mcpOptions,
  );
  // A custom agent's own servers (`mcp-servers`), started when that agent runs.
  const agentMcp: AgentMcpFactory = (agentName, servers) =>
    createAgentMcpManager(agentName, servers, { ...mcpOptions, agentHome: options.agentHome, disabled: options.mcp?.disabled ?? [] });
  // The hook engine loads only for a session that has hooks (or hook files that failed to load, to report them).
  const SessionHooks =
    options.hooks && (options.hooks.definitions.length > 0 || options.hooks.problems.length > 0)
      ? (await import("./session-hooks.js")).SessionHooks
      : undefined;
  // memory: loaded (store, board, tools) only when it is on.
  const memory = options.memory ? new SessionMemory(sessionMemoryOptions(options, id)) : undefined;
  await memory?.start();
  // A resumed session starts in the mode it had; an explicit --mode then switches it (with a notice).
  const mode = log ? restoredMode(log.events) : (options.mode ?? "interactive");
  const session: AgentSession = new AgentSession({
    id,
    dir,
    context,
    store,
    sink,
    conversation,
    provider,
    createProvider: options.createProvider,
    ...(options.subagentLimits ? { subagentLimits: options.subagentLimits } : {}),
    retry: options.providerConfig.retry,
    mode,
    ...(log && mode === "autopilot" ? { objective: restoredObjective(log.events) } : {}),
    maxAutopilotContinues: options.maxAutopilotContinues,
    interactive: options.interactive,
    ...(options.compaction ? { compaction: options.compaction } : {}),
    ...(options.systemPromptShape ? { systemPromptShape: options.systemPromptShape } : {}),
    ...(memory ? { memory } : {}),
    permissions,
    interactions,
    tools: [
      ...createBuiltinTools({ shells }),
      createSqlTool(database),
      createExitPlanModeTool({
        planFile: () => planFile(dir),
        setMode: (mode) => session.dispatch({ type: "set_mode", mode }),
        unattendedAction: () => (options.autoAcceptPlan ? "autopilot" : undefined),
        fleetDeployed: (task) => sink.emit("session.info", { infoType: "fleet", message: fleetDeployedMessage(task) }),
      }),
      ...(options.extraTools ?? []),
    ],
    toolFilter: { available: flags.availableTools, excluded: flags.excludedTools, defaultAgentExcluded: options.defaultAgentExcludedTools },
    instructions: [
      ...(options.customInstructions ? loadCustomInstructions({ cwd: options.cwd, gitRoot: context.gitRoot, agentHome: options.agentHome }) : []),
      ...(options.extraInstructions ?? []),
    ],
    agents:
      options.agents ??
      new AgentCatalog({
        ...trust,
        gitRoot: context.gitRoot,
        trust,
        onProblems: (problems) => reportAgentFileProblems(sink.emit, problems),
        ...(options.extraAgents ? { extra: options.extraAgents } : {}),
        ...(options.excludedBuiltinAgents ? { excludedBuiltins: options.excludedBuiltinAgents } : {}),
      }),
    ...(mcp ? { mcp } : {}),
    database,
    agentMcp,
    ...(options.toolBackends ? { toolBackends: options.toolBackends } : {}),
    backgroundTasks: (): BackgroundTasks => ({ agents: session.backgroundAgents, shells: shells.backgroundShells() }),
    stopShell: async (shellId: string) => {
      const shell = shells.get(shellId);
      if (!shell?.running) return false;
      await shells.stop(shell);
      return true;
    },
    syncLog: () => {
      try {
        writer.sync();
      } catch (error) {
        sink.logFailed(error);
      }
    },
    dispose: () => {
      stopAnnouncing();
      shells.dispose();
      database.close();
      void mcp?.close();
      try {
        writer.close();
      } finally {
        releaseLock();
      }
    },
    turnCount: log?.events.filter((event) => event.type === "assistant.turn_start").length ?? 0,
    ...(SessionHooks && options.hooks
      ? { hooks: new SessionHooks(options.hooks, { sessionId: id, cwd: options.cwd, transcriptPath: store.eventsFileOf(id) }) }
      : {}),
  });

  /**
   * Once the session's first event is on disk, a log that stops taking events (a full disk, a read-only
   * home) stops the session and says why; one that cannot take even that first event fails the open.
   */
  const watchLog = () => {
    if (sink.logFailure) {
      session.dispatch({ type: "shutdown" });
      throw sink.logFailure;
    }
    sink.onLogFailure((error) => {
      sink.emit("session.error", { errorType: SESSION_LOG_ERROR, message: sessionLogFailureMessage(error, id) });
      session.dispatch({ type: "interrupt" });
      for (const agent of session.backgroundAgents) void session.dispatch({ type: "cancel_agent", agentId: agent.agentId });
    });
  };

  // The model hears when a command it left running in the background ends, without polling for it.
  const stopAnnouncing = shells.onBackgroundExit((shell) =>
    session.notify({
      kind: "shell_completed",
      content: `Background shell ${shell.shellId} (${shell.description}) finished: ${describeStatus(shell.status)}. ${shell.unreadBytes > 0 ? `It has ${shell.unreadBytes} bytes of unread output; read_bash shows them.` : "Its output has been read."}`,
    }),
  );

  if (!log) {
    sink.emit("session.start", {
      sessionId: id,
      version: 1,
      producer: "agent",
      copilotVersion: agentVersion(),
      startTime: now,
      selectedModel: provider.model,
      ...(options.providerConfig.reasoningEffort ? { reasoningEffort: options.providerConfig.reasoningEffort } : {}),
      // As Copilot records it: every session starts interactive, and another starting mode (--plan,
      // --autopilot) is a switch recorded right after, so a reader folds one mode history.
      mode: "interactive",
      ...(options.name ? { name: options.name } : {}),
      context,
      ...(options.detachedFrom ? { detachedFromSpawningParentSessionId: options.detachedFrom } : {}),
    });
    reportMemoryProblems(memory, sink.emit);
    if (mode !== "interactive") sink.emit("session.mode_changed", { previousMode: "interactive", newMode: mode });
    watchLog();
    mcp?.start();
    await session.runStartHooks("new", options.initialPrompt);
    return { session, history: [] };
  }

  const unanswered = conversation.unansweredToolCalls();
  if (!options.silentResume) {
    sink.emit("session.resume", {
      resumeTime: now,
      eventCount: log.events.length + log.unknownEvents,
      eventsFileSizeBytes: log.fileSizeBytes,
      selectedModel: provider.model,
      context,
      ...(log.skipped.length > 0 ? { skippedLines: log.skipped.length } : {}),
      ...(unanswered.length > 0 ? { repairedToolCalls: unanswered.length } : {}),
    });
  }
  reportMemoryProblems(memory, sink.emit);
  watchLog();
  mcp?.start();
  for (const call of unanswered) {
    sink.emit("tool.execution_complete", {
      toolCallId: call.toolCallId,
      success: false,
      error: {
        message: `The session stopped before this ${call.toolName} call finished, so its result is unknown. Check its effects before relying on them.`,
        code: "interrupted",
      },
    });
  }
  session.restoreAgents(log.events);
  session.metrics.earlier = priorUsage(log.events);
  for (const started of unfinishedAgents(log.events)) {
    const emit = started.agentId ? sink.scoped({ agentId: started.agentId }) : sink.emit;
    emit("subagent.failed", {
      toolCallId: started.data.toolCallId,
      agentName: started.data.agentName,
      agentDisplayName: started.data.agentDisplayName,
      error: "interrupted: the session ended while the agent was running",
    });
  }
  await session.runStartHooks("resume");
  if (options.mode && options.mode !== session.mode) session.dispatch({ type: "set_mode", mode: options.mode });
  restoreSelectedAgent(session, log.events, sink.emit);
  if (options.name && options.name !== previous?.name) keeper.rename(options.name);
  return {
    session,
    history: log.events,
    resume: { eventCount: log.events.length, skippedLines: log.skipped.length, unknownEvents: log.unknownEvents, repairedToolCalls: unanswered.length },
  };
}

/** settings.json `mcp.autoApproveReadOnly` as the permission policy takes it (absent when off). */
function mcpReadOnlyPolicy(setting: boolean | readonly string[] | undefined): { mcpReadOnly?: true | readonly string[] } {
  if (setting === true) return { mcpReadOnly: true };
  return Array.isArray(setting) && setting.length > 0 ? { mcpReadOnly: setting } : {};
}

/** What memory needs of a session being opened: its stores are the working directory's; a detached run reads its parent. */
function sessionMemoryOptions(options: OpenSessionOptions, id: string): SessionMemoryOptions {
  const { store } = options;
  const named = options.detachedFrom;
  const parent = named !== undefined && isValidSessionId(named) && store.exists(named) ? named : undefined;
  return {
    ...(options.memory as NonNullable<OpenSessionOptions["memory"]>),
    agentHome: options.agentHome,
    cwd: options.cwd,
    sessionId: parent ?? id,
    transcriptFile: store.eventsFileOf(parent ?? id),
    ...(options.detachedFrom !== undefined ? { unattended: true } : {}),
  };
}

/** A store file with lines that are not memories, or that cannot be read: said once, the session goes on. */
function reportMemoryProblems(memory: SessionMemory | undefined, emit: EventSink["emit"]): void {
  for (const message of memory?.takeProblems() ?? []) emit("session.warning", { warningType: "memory", message });
}
