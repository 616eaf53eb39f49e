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
    const [{ SessionManager }, { createOpenAIChatProvider }] = await Promise.all([import("../core/session-manager.js"), import("../provider/openai-chat.js")]);
    const config = boot.providerConfig;
    this.manager ??= new SessionManager({
      store: boot.store,
      ...homesOf(boot),
      ...(this.trustedThisSession.length > 0 ? { trustedThisSession: this.trustedThisSession } : {}),
      cwd: options.cwd,
      ...sessionProviders(config, createOpenAIChatProvider),
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
    });
    const previous = this.current;
    if (previous && previous.id === resumeId) {
      this.manager.close(previous.id); // reopening the same session: it must let go of its log first
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
    if (previous && previous.id !== resumeId) this.manager.close(previous.id);
    this.current = opened.session;
    this.resumedSession = resumeId !== undefined;
    this.past = early.length > 0 ? [...opened.history, ...early] : opened.history;
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

  shutdown(): void {
    this.manager?.closeAll();
  }
}
