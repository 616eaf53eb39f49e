/**
 * The TUI's session host: opens the first session (new, or resumed) and replaces it for /clear and
 * /resume. Every session it opens is interactive (a person answers permission requests).
 */
import path from "node:path";
import type { AgentSession } from "../core/agent-session.js";
import type { SessionEvent } from "../core/events/index.js";
import type { SessionMetadata } from "../session/session-metadata.js";
import type { SessionHost } from "../ui/session-host.js";
import type { Bootstrap } from "./bootstrap.js";
import type { CliOptions } from "./cli-options.js";

export class TuiSessionHost implements SessionHost {
  private current: AgentSession | undefined;
  private past: readonly SessionEvent[] = [];
  private readonly listeners = new Set<() => void>();
  private fileList: Promise<string[]> | undefined;

  constructor(
    private readonly boot: Bootstrap,
    private readonly options: CliOptions,
  ) {}

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

  get cwd(): string {
    return this.options.cwd;
  }

  branch?: string;

  /** Opens the session the command line asked for. The engine is loaded here, after the TUI's first frame. */
  async open(resumeId: string | undefined): Promise<void> {
    const { boot, options } = this;
    const [{ openSession }, { createOpenAIChatProvider }, { workingDirectoryContext }] = await Promise.all([
      import("../core/open-session.js"),
      import("../provider/openai-chat.js"),
      import("../core/environment.js"),
    ]);
    const config = boot.providerConfig;
    // Reopening the current session: it must let go of the session (its log and lock) first. Any other
    // session is opened before the current one closes, so a refusal (open in another process) keeps it.
    if (resumeId !== undefined && resumeId === this.current?.id) {
      this.current.shutdown();
      this.current = undefined;
    }
    const opened = await openSession({
      store: boot.store,
      agentHome: boot.agentHome,
      cwd: options.cwd,
      provider: createOpenAIChatProvider(config),
      createProvider: (model) => createOpenAIChatProvider({ ...config, model }),
      providerConfig: config,
      mode: options.mode,
      maxAutopilotContinues: boot.maxAutopilotContinues,
      interactive: true,
      permissions: boot.permissions,
      ...(options.name && !resumeId ? { name: options.name } : {}),
      customInstructions: options.customInstructions,
      resumeId,
    });
    this.current?.shutdown();
    this.current = opened.session;
    this.past = opened.history;
    this.branch = workingDirectoryContext(options.cwd).branch;
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
    this.fileList ??= import("../tools/file-walker.js")
      .then(({ listFiles }) => listFiles(this.options.cwd, { maxFiles: 20_000 }))
      .then(({ files }) => files.map((file) => path.relative(this.options.cwd, file)));
    const files = await this.fileList;
    const wanted = query.toLowerCase();
    return files.filter((file) => file.toLowerCase().includes(wanted)).slice(0, 200);
  }

  shutdown(): void {
    this.current?.shutdown();
  }
}
