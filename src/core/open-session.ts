/**
 * Opens a session: a new one (session.start), or an existing one from its log (session.resume). Takes the
 * session's lock, reads and folds the log, opens its writer and metadata, has session-assembly.ts build the
 * session's collaborators around them, and on a resume has resume-repair.ts close what the last process left
 * unfinished. Over 300 lines: OpenSessionOptions, every face's say over a session, is documented field by field.
 */
import type { SecretFilter } from "../util/secret-filter.js";
import type { ProviderConfig } from "../config/provider-config.js";
import type { PermissionFlags } from "../permissions/policy.js";
import type { Rule } from "../permissions/rules.js";
import type { ChatProvider } from "../provider/types.js";
import type { ProviderOptions } from "../provider/session-providers.js";
import { EventLogWriter } from "../session/event-log-writer.js";
import type { EventLog } from "../session/event-log-reader.js";
import { MetadataKeeper } from "../session/metadata-keeper.js";
import { readMetadata } from "../session/session-metadata.js";
import { acquireSessionLock } from "../session/session-lock.js";
import type { SessionStore } from "../session/session-store.js";
import type { ToolBackends } from "../tools/backends.js";
import type { AnyTool } from "../tools/define-tool.js";
import type { SessionEvent, AgentMode, SessionLimits } from "../protocol/events/index.js";
import type { InteractionKind } from "../protocol/interactions.js";
import type { HookSet } from "../hooks/hook-set.js";
import type { McpSessionOptions } from "../mcp/index.js";
import { AgentSession } from "./agent-session.js";
import type { AgentDefinition } from "./agents/agent-catalog.js";
import type { CompactionSettings } from "./compaction/compactor.js";
import { Conversation } from "./conversation.js";
import { initialSessionState } from "./state/session-state.js";
import { foldEvents, SessionStateFold } from "./state/state-fold.js";
import { RewindHistory } from "./rewind/rewind-history.js";
import type { ToolStandIn } from "./replay/tool-stand-in.js";
import { visibleEvents } from "../session/rewind/rewind-timeline.js";
import type { InstructionFile } from "./custom-instructions.js";
import { workingDirectoryContext } from "./environment.js";
import { EventSink, type EventListener } from "./event-sink.js";
import type { PermissionAdvice } from "./permission-advice.js";
import { SESSION_LOG_ERROR, sessionLogFailureMessage } from "./session-log-failure.js";
import { repairResume, restoredStart, restoreSelection, type ResumeReport } from "./resume-repair.js";
import { agentVersion, assembleParts, assembleServices, type OpenedLog } from "./session-assembly.js";
import type { SessionServices } from "./session-services.js";
import type { SystemPromptShape } from "./system-prompt-shape.js";
import type { AgentDirectory } from "./tasks/agent-directory.js";
import type { SubagentLimits } from "./tasks/subagent-host.js";
import type { SkillSettings } from "./skills/session-extensions.js";
import type { SessionMemoryOptions } from "../memory/session-memory.js";
import { isoTime } from "../util/iso-time.js";

export { agentVersion } from "./session-assembly.js";
export type { ResumeReport } from "./resume-repair.js";

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
  /** What a client's resume says of the work left waiting (the SDK's continuePendingWork), recorded on session.resume. */
  continuePendingWork?: boolean;
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
  /** The session's limits (an SDK app's sessionLimits): a new session starts with them, a resumed one takes them (null clears). */
  sessionLimits?: SessionLimits | null;
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
  compaction?: Partial<CompactionSettings>;
  /** Values no event written or told may show (a client's secrets.addFilterValues); the session manager's. */
  secrets?: SecretFilter;
  /** Skill folders and disabled skills (settings, a client), --plugin-dir (issue 19). */
  skills?: SkillSettings;
  /** A replay's stand-in for tools (see core/replay/tool-stand-in.ts). */
  toolStandIn?: ToolStandIn;
  /** Deletes another stored session (/session delete), by the session manager's rules. */
  deleteSession?(id: string): Promise<string | undefined>;
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
  /** Read-only commands and file reads are asked like other calls unless allowed (the SDK face: Copilot asks its app). */
  askReadOnly?: boolean;
}

export interface OpenedSession {
  session: AgentSession;
  resume?: ResumeReport;
  /** The events the session's log already held (a resumed session), for showing its history. */
  history: readonly SessionEvent[];
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
  const opened = await openLog(options, id, dir, releaseLock);
  let session: AgentSession | undefined;
  const services = await assembleServices(options, opened, {
    setMode: (mode) => session?.dispatch({ type: "set_mode", mode }),
    mcpTasks: () => (session as AgentSession).mcpTasks,
  });
  // This process's own facts join the state before its first event (a resume's: after the fold of the log).
  opened.state.beginProcess({
    model: options.provider.model,
    ...(options.providerConfig.reasoningEffort ? { reasoningEffort: options.providerConfig.reasoningEffort } : {}),
    context: opened.context,
    permissions: { allowAll: services.permissions.allowAll, summary: services.permissions.summary },
    ...((options.name ?? opened.previousName) !== undefined ? { name: options.name ?? opened.previousName } : {}),
    startTime: Date.now(),
  });
  // A resumed session starts in the mode it had; an explicit --mode then switches it (with a notice).
  const start = opened.log ? restoredStart(opened.state.state) : { mode: options.mode ?? "interactive" };
  session = new AgentSession(services, assembleParts(services, start));
  return opened.log ? resume(session, services, options, opened, opened.log) : begin(session, services, options, opened);
}

/** The session's log as this process continues it, its folds and its metadata. */
interface SessionLog extends OpenedLog {
  now: string;
  keeper: MetadataKeeper;
  /** The name the session had (a resume). */
  previousName?: string;
}

/** Reads the log (a resume), opens its writer and the sink over it, folds it, and keeps the metadata file. */
async function openLog(options: OpenSessionOptions, id: string, dir: string, releaseLock: () => void): Promise<SessionLog> {
  const { store, provider } = options;
  const context = workingDirectoryContext(options.cwd);
  // The reader (and with it every event's schema) loads only to resume: a new session never reads a log.
  const log: EventLog | undefined = options.resumeId ? (await import("../session/event-log-reader.js")).readEventLog(store.eventsFileOf(id)) : undefined;
  const writer = new EventLogWriter(store.eventsFileOf(id));
  const sink = new EventSink(writer, {
    lastPersistedId: log?.lastEventId ?? null,
    persistedCount: log ? log.events.length + log.unknownEvents : 0,
    ...(options.secrets ? { secrets: options.secrets } : {}),
  });
  // The session's folds of its events: each runs over the log first, then on every event as it happens.
  const conversation = new Conversation();
  const rewind = new RewindHistory(dir, { id, store });
  for (const event of log?.events ?? []) {
    conversation.apply(event);
    rewind.apply(event);
  }
  sink.addInternal((event) => {
    conversation.apply(event);
    rewind.apply(event);
  });
  const state = new SessionStateFold(log ? foldEvents(log.events) : initialSessionState());
  sink.addInternal(state.apply);

  const now = isoTime();
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
  return {
    id,
    dir,
    context,
    ...(log ? { log } : {}),
    sink,
    conversation,
    state,
    rewind,
    now,
    keeper,
    ...(previous?.name ? { previousName: previous.name } : {}),
    syncLog: () => void writer.sync((error) => sink.logFailed(error)),
    closeLog: () => {
      try {
        writer.close();
      } finally {
        releaseLock();
      }
    },
  };
}

/** A new session: session.start (and the starting mode, as a switch), its MCP servers, its sessionStart hooks. */
async function begin(session: AgentSession, services: SessionServices, options: OpenSessionOptions, opened: SessionLog): Promise<OpenedSession> {
  const { sink } = opened;
  sink.emit("session.start", {
    sessionId: opened.id,
    version: 1,
    producer: "agent",
    copilotVersion: agentVersion(),
    startTime: opened.now,
    selectedModel: options.provider.model,
    ...(options.providerConfig.reasoningEffort ? { reasoningEffort: options.providerConfig.reasoningEffort } : {}),
    // As Copilot records it: every session starts interactive, and another starting mode (--plan,
    // --autopilot) is a switch recorded right after, so a reader folds one mode history.
    mode: "interactive",
    ...(options.name ? { name: options.name } : {}),
    context: opened.context,
    ...(options.detachedFrom ? { detachedFromSpawningParentSessionId: options.detachedFrom } : {}),
    ...(options.sessionLimits?.maxAiCredits !== undefined ? { sessionLimits: { maxAiCredits: options.sessionLimits.maxAiCredits } } : {}),
  });
  reportMemoryProblems(services, sink);
  if (session.mode !== "interactive") sink.emit("session.mode_changed", { previousMode: "interactive", newMode: session.mode });
  watchLog(session, sink);
  services.mcp?.start();
  await session.runStartHooks("new", options.initialPrompt);
  return { session, history: [] };
}

/** A resumed session: session.resume, the repair of what the last process left open, and what it was restored. */
async function resume(
  session: AgentSession,
  services: SessionServices,
  options: OpenSessionOptions,
  opened: SessionLog,
  log: EventLog,
): Promise<OpenedSession> {
  const { sink } = opened;
  const unanswered = opened.conversation.unansweredToolCalls();
  if (!options.silentResume) {
    sink.emit("session.resume", {
      resumeTime: opened.now,
      eventCount: log.events.length + log.unknownEvents,
      eventsFileSizeBytes: log.fileSizeBytes,
      selectedModel: options.provider.model,
      ...(options.providerConfig.reasoningEffort ? { reasoningEffort: options.providerConfig.reasoningEffort } : {}),
      context: opened.context,
      // A resume from the log joins no live work; only a client's resume says whether it continues what was left.
      sessionWasActive: false,
      ...(options.continuePendingWork !== undefined ? { continuePendingWork: options.continuePendingWork } : {}),
      ...(log.skipped.length > 0 ? { skippedLines: log.skipped.length } : {}),
      ...(unanswered.length > 0 ? { repairedToolCalls: unanswered.length } : {}),
    });
  }
  reportMemoryProblems(services, sink);
  watchLog(session, sink);
  services.mcp?.start();
  repairResume(session, services, unanswered);
  services.skills.restore(log.events); // the skills loaded before, and the rules they add
  await session.runStartHooks("resume");
  if (options.mode && options.mode !== session.mode) session.dispatch({ type: "set_mode", mode: options.mode });
  if (options.sessionLimits !== undefined) session.dispatch({ type: "set_session_limits", limits: options.sessionLimits });
  restoreSelection(session, services);
  if (options.name && options.name !== opened.previousName) opened.keeper.rename(options.name);
  return {
    session,
    // What a rewind hid is not shown again.
    history: visibleEvents(log.events),
    resume: { eventCount: log.events.length, skippedLines: log.skipped.length, unknownEvents: log.unknownEvents, repairedToolCalls: unanswered.length },
  };
}

/**
 * Once the session's first event is on disk, a log that stops taking events (a full disk, a read-only home)
 * stops the session and says why; one that cannot take even that first event fails the open.
 */
function watchLog(session: AgentSession, sink: EventSink): void {
  if (sink.logFailure) {
    session.dispatch({ type: "shutdown" });
    throw sink.logFailure;
  }
  sink.onLogFailure((error) => {
    sink.emit("session.error", { errorType: SESSION_LOG_ERROR, message: sessionLogFailureMessage(error, session.id) });
    session.dispatch({ type: "interrupt" });
    for (const agent of session.backgroundAgents) void session.dispatch({ type: "cancel_agent", agentId: agent.agentId });
  });
}

/** A store file with lines that are not memories, or that cannot be read: said once, the session goes on. */
function reportMemoryProblems(services: SessionServices, sink: EventSink): void {
  for (const message of services.memory?.takeProblems() ?? []) sink.emit("session.warning", { warningType: "memory", message });
}
