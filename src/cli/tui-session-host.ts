/**
 * The TUI's session host: opens the first session (new, or resumed) and replaces it for /clear and
 * /resume. Every session it opens is interactive (a person answers permission requests).
 */
import { adviceText } from "./permission-advice-text.js";
import path from "node:path";
import type { AgentSession } from "../core/agent-session.js";
import type { SessionManager } from "../core/session-manager.js";
import type { SessionEvent } from "../protocol/events/index.js";
import type { SessionMetadata } from "../session/session-metadata.js";
import type { SessionHost } from "../ui/session-host.js";
import type { HookSet } from "../hooks/hook-set.js";
import { homesOf, type Bootstrap } from "./bootstrap.js";
import type { CliOptions } from "./cli-options.js";
import { asFleetInput } from "./fleet-input.js";
import { sessionProviders } from "../provider/session-providers.js";
import { memoryOptions } from "./memory-options.js";
import { consolidateAfterSession, isUserTurn } from "./memory-consolidation.js";
import { BACKGROUND_AGENTS_STOPPED } from "../core/tasks/background-notice.js";

export class TuiSessionHost implements SessionHost {
  private current: AgentSession | undefined;
  private manager: SessionManager | undefined;
  private past: readonly SessionEvent[] = [];
  private readonly listeners = new Set<() => void>();
  private fileList: { cwd: string; files: Promise<string[]> } | undefined;

  constructor(
    private readonly boot: Bootstrap,
    private readonly options: CliOptions,
    /** Loads the hooks every session of this TUI runs (trust was settled before it started). */
    private readonly loadHooks?: () => Promise<HookSet | undefined>,
    /** Folders the person trusted for this TUI's sessions only (the trust question's "this session"). */
    private readonly trustedThisSession: readonly string[] = [],
  ) {}

  /** --fleet applies to the first prompt only. */
  private fleetUsed = false;

  prepareInput(text: string): string {
    if (this.options.fleet !== true || this.fleetUsed || text.trim() === "") return text;
    this.fleetUsed = true;
    return asFleetInput(text);
  }

  /** Loaded once, when the first session opens: after the first frame, so hook files cost it nothing. */
  private hooks: Promise<HookSet | undefined> | undefined;

  get ready(): boolean {
    return this.current !== undefined;
  }

  get session(): AgentSession {
    if (!this.current) throw new Error("No session is open.");
    return this.current;
  }

  get history(): readonly SessionEvent[] {
    return this.past;
  }

  get instructionFiles(): readonly string[] {
    return this.current?.instructionPaths ?? [];
  }

  /** The open session's working directory (/cwd moves it). */
  get cwd(): string {
    return this.current?.cwd ?? this.options.cwd;
  }

  /** The open session's branch (it follows /cwd). */
  get branch(): string | undefined {
    return this.current?.workspace.context.branch;
  }

  /** The open session was resumed (it has a past worth coming back to). */
  private resumedSession = false;

  /** Whether the open session is worth resuming: it has a past, or the model answered in it. */
  get resumable(): boolean {
    return this.current !== undefined && this.current.hasConversation && (this.resumedSession || this.current.metrics.completedCalls > 0);
  }

  /** Opens the session the command line asked for. The engine is loaded here, after the TUI's first frame. */
  async open(resumeId: string | undefined): Promise<void> {
    const { boot, options } = this;
    this.hooks ??= this.loadHooks?.() ?? Promise.resolve(undefined);
    const hooks = await this.hooks;
    const [{ SessionManager }, { createWireProvider }] = await Promise.all([import("../core/session-manager.js"), import("../provider/wire-provider.js")]);
    const config = boot.providerConfig;
    this.manager ??= new SessionManager({
      store: boot.store,
      ...homesOf(boot),
      ...(this.trustedThisSession.length > 0 ? { trustedThisSession: this.trustedThisSession } : {}),
      cwd: options.cwd,
      ...sessionProviders(config, createWireProvider, boot.registry),
      providerConfig: config,
      mode: options.mode,
      maxAutopilotContinues: boot.maxAutopilotContinues,
      ...(boot.settings.compaction ? { compaction: boot.settings.compaction } : {}),
      ...(boot.skills ? { skills: boot.skills } : {}),
      subagentLimits: boot.subagentLimits,
      interactive: true,
      permissions: boot.permissions,
      customInstructions: options.customInstructions,
      ...(options.mcp ? { mcp: options.mcp } : {}),
      explainAdvice: adviceText,
      ...(hooks ? { hooks } : {}),
      memory: memoryOptions(boot, options, "interactive"),
    });
    const previous = this.current;
    // What closing the previous session said about the background agents it stopped is shown with the next.
    let stopped: SessionEvent[] = [];
    if (previous && previous.id === resumeId) {
      stopped = this.closeSession(previous); // reopening the same session: it must let go of its log first
      this.current = undefined;
    }
    // Warnings raised while the session opens (a bad hook file, a failing sessionStart hook) come before the
    // TUI subscribes: kept and shown with the session's past.
    const early: SessionEvent[] = [];
    let opening = true;
    const keepEarly = (event: SessionEvent) => {
      if (opening && event.type === "session.warning") early.push(event);
    };
    const opened = await this.manager
      // A new session starts where the last one was (after /cwd, that is its new directory).
      .openSession({ ...(options.name && !resumeId ? { name: options.name } : {}), ...(resumeId ? { resumeId } : { cwd: this.cwd }), listeners: [keepEarly] })
      .finally(() => (opening = false));
    if (previous && previous.id !== resumeId) stopped = this.closeSession(previous);
    this.current = opened.session;
    this.consolidateWhenEnded(opened.session, opened.history); // memory
    this.resumedSession = resumeId !== undefined;
    this.past = early.length + stopped.length > 0 ? [...opened.history, ...stopped, ...early] : opened.history;
    // --agent applies to the session the TUI starts with; later ones (/new, /resume) start with the default
    // agent. What selecting says (a bad agent file) is kept with the past, as the TUI subscribes only later.
    if (options.agent !== undefined && previous === undefined) {
      const said: SessionEvent[] = [];
      const stop = opened.session.subscribe((event) => said.push(event));
      opened.session.dispatch({ type: "select_agent", name: options.agent });
      stop();
      this.past = [...this.past, ...said];
    }
  }

  async startNew(): Promise<void> {
    await this.open(undefined);
    for (const listener of this.listeners) listener();
  }

  async switchTo(id: string): Promise<void> {
    await this.open(id);
    for (const listener of this.listeners) listener();
  }

  listSessions(): Promise<SessionMetadata[]> {
    return this.boot.store.conversations();
  }

  onSwitch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Files for the @ picker: the workspace's files (honouring .gitignore), listed once and filtered per query. */
  async listFiles(query: string): Promise<string[]> {
    const cwd = this.cwd;
    if (this.fileList?.cwd !== cwd) {
      this.fileList = {
        cwd,
        files: import("../tools/file-walker.js")
          .then(({ listFiles }) => listFiles(cwd, { maxFiles: 20_000 }))
          .then(({ files }) => files.map((file) => path.relative(cwd, file))),
      };
    }
    const files = await this.fileList.files;
    const wanted = query.toLowerCase();
    return files.filter((file) => file.toLowerCase().includes(wanted)).slice(0, 200);
  }

  /** Closes a session, returning what it said about the background agents it stopped (/clear, /resume, exit). */
  private closeSession(session: AgentSession): SessionEvent[] {
    const said: SessionEvent[] = [];
    const stop = session.subscribe((event) => {
      if (event.type === "session.warning" && event.data.warningType === BACKGROUND_AGENTS_STOPPED) said.push(event);
    });
    try {
      this.manager?.close(session.id);
    } finally {
      stop();
    }
    return said;
  }

  /** Closes the open session; returns what it says about background agents it stopped, for the terminal after the TUI. */
  shutdown(): string[] {
    const said = this.current ? this.closeSession(this.current) : [];
    this.manager?.closeAll();
    return said.flatMap((event) => (event.type === "session.warning" ? [event.data.message] : []));
  }

  /** Memory: when the session ends (/new, /resume, exit), its consolidation may start, detached (memory-consolidation.ts). */
  private consolidateWhenEnded(session: AgentSession, past: readonly SessionEvent[]): void {
    let userTurns = past.filter(isUserTurn).length;
    const stop = session.subscribe((event) => {
      if (isUserTurn(event)) userTurns++;
      if (event.type !== "session.shutdown" || event.agentId !== undefined) return;
      stop();
      const memory = session.workspace.memory;
      if (!memory) return;
      // The repository whose memories the session used: where it started, even if /cwd moved it since.
      const ended = { id: session.id, dir: session.dir, cwd: memory.options.cwd, model: session.model, userTurns, memoryEnabled: memory.enabled };
      consolidateAfterSession(ended, memory.options.settings);
    });
  }
}
