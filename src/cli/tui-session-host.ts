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
import type { Bootstrap } from "./bootstrap.js";
import type { CliOptions } from "./cli-options.js";
import { asFleetInput } from "./fleet-input.js";
import { consolidateAfterSession, isUserTurn } from "./memory-consolidation.js";
import { BACKGROUND_AGENTS_STOPPED } from "../core/tasks/background-notice.js";

export class TuiSessionHost implements SessionHost {
  /** The session shown: the manager holds it, the host only knows which one it is. */
  private shownId: string | undefined;
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

  private get current(): AgentSession | undefined {
    return this.shownId === undefined ? undefined : this.manager?.get(this.shownId);
  }

  get ready(): boolean {
    return this.current !== undefined;
  }

  get session(): AgentSession {
    const current = this.current;
    if (!current) throw new Error("No session is open.");
    return current;
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
    const [{ SessionManager }, { composeSessionOptions }] = await Promise.all([import("../core/session-manager.js"), import("../core/compose-session.js")]);
    this.manager ??= new SessionManager(
      composeSessionOptions({
        ...boot,
        flags: options,
        memory: "interactive",
        face: {
          interactive: true,
          explainAdvice: adviceText,
          ...(this.trustedThisSession.length > 0 ? { trustedThisSession: this.trustedThisSession } : {}),
          ...(hooks ? { hooks } : {}),
        },
      }),
    );
    const previous = this.current;
    // What closing the previous session said about the background agents it stopped is shown with the next.
    let stopped: SessionEvent[] = [];
    if (previous && previous.id === resumeId) {
      // Reopening the same session: it must let go of its log first.
      const closed = this.closeSession(previous);
      await closed.ended;
      stopped = closed.said;
      this.shownId = undefined;
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
      .open({ ...(options.name && !resumeId ? { name: options.name } : {}), ...(resumeId ? { resumeId } : { cwd: this.cwd }), listeners: [keepEarly] })
      .finally(() => (opening = false));
    // The previous session ends in the background (its end hooks may take a while); the new one is shown now.
    if (previous && previous.id !== resumeId) stopped = this.closeSession(previous).said;
    this.shownId = opened.session.id;
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

  /**
   * Closes a session: what it said about the background agents it stopped (/clear, /resume, exit), and when
   * it has ended (its end hooks ran, its log is closed).
   */
  private closeSession(session: AgentSession): { said: SessionEvent[]; ended: Promise<void> } {
    const said: SessionEvent[] = [];
    const stop = session.subscribe((event) => {
      if (event.type === "session.warning" && event.data.warningType === BACKGROUND_AGENTS_STOPPED) said.push(event);
    });
    // Without a grace period the shutdown is dispatched at once: what it says is known when close returns.
    // An end hook that fails has said so in the session's events; the TUI goes on either way.
    const ended = (this.manager?.close(session.id) ?? Promise.resolve()).catch(() => undefined);
    stop();
    return { said, ended };
  }

  /**
   * Closes the open session; returns what it says about background agents it stopped, for the terminal after
   * the TUI. Its end (the end hooks, the log) goes on without the TUI, as the process ends only after it.
   */
  shutdown(): string[] {
    const closed = this.current ? this.closeSession(this.current) : undefined;
    void this.manager?.closeAll().catch(() => undefined);
    return (closed?.said ?? []).flatMap((event) => (event.type === "session.warning" ? [event.data.message] : []));
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
