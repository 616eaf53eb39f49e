/**
 * A SessionHost for app-level tests: the real engine (interactive sessions) behind the UI, the scripted
 * server as the model, temp AGENT_HOME and working directory.
 */
import type { AgentSession } from "../../src/core/agent-session.js";
import type { SessionEvent } from "../../src/core/events/index.js";
import { openSession } from "../../src/core/open-session.js";
import { createOpenAIChatProvider } from "../../src/provider/openai-chat.js";
import type { SessionMetadata } from "../../src/session/session-metadata.js";
import { SessionStore } from "../../src/session/session-store.js";
import type { SessionHost } from "../../src/ui/session-host.js";
import { sessionPermissions, tempDir, testProviderConfig } from "./engine-harness.js";
import { noPermissionFlags } from "../../src/permissions/policy.js";
import { startScriptedServer, type ScriptedServer } from "./scripted-server.js";

export class TestSessionHost implements SessionHost {
  private current: AgentSession | undefined;
  private past: readonly SessionEvent[] = [];
  private readonly listeners = new Set<() => void>();
  readonly store: SessionStore;
  branch?: string;

  private constructor(
    readonly server: ScriptedServer,
    readonly home: string,
    readonly cwd: string,
    readonly files: string[],
  ) {
    this.store = new SessionStore(home);
  }

  static async start(options: { files?: string[] } = {}): Promise<TestSessionHost> {
    const host = new TestSessionHost(await startScriptedServer(), tempDir("tui-home-"), tempDir("tui-cwd-"), options.files ?? []);
    await host.open(undefined);
    return host;
  }

  get ready(): boolean {
    return this.current !== undefined;
  }

  get session(): AgentSession {
    if (!this.current) throw new Error("no session");
    return this.current;
  }

  get history(): readonly SessionEvent[] {
    return this.past;
  }

  get instructionFiles(): readonly string[] {
    return this.session.instructionPaths;
  }

  async open(resumeId: string | undefined): Promise<void> {
    const config = testProviderConfig(this.server.baseUrl);
    const opened = await openSession({
      store: this.store,
      agentHome: this.home,
      cwd: this.cwd,
      provider: createOpenAIChatProvider(config),
      createProvider: (model) => createOpenAIChatProvider({ ...config, model }),
      providerConfig: config,
      maxAutopilotContinues: 5,
      interactive: true,
      permissions: sessionPermissions(noPermissionFlags),
      customInstructions: false,
      resumeId,
    });
    this.current?.shutdown();
    this.current = opened.session;
    this.past = opened.history;
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
    return this.store.list();
  }

  onSwitch(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async listFiles(query: string): Promise<string[]> {
    return this.files.filter((file) => file.includes(query));
  }

  async close(): Promise<void> {
    this.current?.shutdown();
    await this.server.close();
  }
}
