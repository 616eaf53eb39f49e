/**
 * The session's MCP servers: started in the background when the session starts, their tools offered as
 * they become ready, their failures reported as warnings. The session asks `tools()` before each model
 * request and `waitForPrompt()` before each prompt: the first prompt waits for servers whose tools are not
 * known yet (no cached list), any prompt for the servers it names, each up to its start timeout; a session
 * that never needs a server with a cached list is never held up by it.
 */
import type { AnyTool } from "../tools/define-tool.js";
import type { EnvValueMode } from "./expand-env.js";
import { McpConnection, type ConnectionDeps, type ServerState } from "./mcp-connection.js";
import type { ConfiguredServer, LoadedMcpConfig } from "./mcp-config.js";
import { createMcpTool, mcpToolName, type McpTaskHost } from "./mcp-tool.js";
import type { ToolCache } from "./tool-cache.js";

export interface McpManagerOptions {
  /** Reads the configuration (again, for /mcp reload). */
  load(): LoadedMcpConfig;
  env: NodeJS.ProcessEnv;
  cwd: string;
  secretEnvVars: readonly string[];
  clientVersion: string;
  /** Servers' `instructions` may go into the system prompt (they are the server author's words, not the user's). */
  allowInstructions?: boolean;
  elicit?: ConnectionDeps["elicit"];
  /** Reports a problem (session.warning). */
  warn(message: string): void;
  /** Servers' tool lists from their last run: with one, a server's tools are offered before it has started. */
  cache?: ToolCache;
  /** Where tools that require task support run in the background (the session's task registry). */
  tasks?: McpTaskHost;
}

export interface ServerStatus {
  name: string;
  transport: ConfiguredServer["transport"];
  source: string;
  state: ServerState;
  error?: string;
  /** The tools offered to the model, by their model-facing names. */
  tools: string[];
  stderrTail: readonly string[];
  target: string;
}

/**
 * What a watcher hears: the whole list when the configuration has been read and its servers started (at the
 * start, after a reload), then each server's state as it changes.
 */
export type McpChange = { kind: "loaded"; servers: ServerStatus[] } | { kind: "status"; name: string; state: ServerState; error?: string };

/** How long after the session starts a server with a cached tool list is started (AGENT_MCP_DEFERRED_START_MS overrides). */
function deferredStartMs(env: NodeJS.ProcessEnv): number {
  const fromEnv = Number(env.AGENT_MCP_DEFERRED_START_MS);
  return env.AGENT_MCP_DEFERRED_START_MS !== undefined && Number.isFinite(fromEnv) && fromEnv >= 0 ? fromEnv : 1_000;
}

/** Whether a prompt names a server: its name as a word of its own, or as the start of one of its tools' names (`files-read_file`). */
function namesServer(prompt: string, server: string): boolean {
  const name = server.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\w-])${name}(?!\\w)`, "i").test(prompt);
}

export class McpManager {
  private readonly connections = new Map<string, McpConnection>();
  private deferred: NodeJS.Timeout[] = [];
  /** Deferred starts not made yet, by server: a prompt that names the server makes its start at once. */
  private readonly pendingLaunches = new Map<string, () => void>();
  /** Servers turned off for this session: disabled (/mcp disable), or stopped (an SDK client's stopServer). */
  private readonly off = new Map<string, "disabled" | "stopped">();
  /** How servers started from now on read their `env` values (an SDK client may switch it). */
  private envValueMode: EnvValueMode = "direct";
  private toolCache?: AnyTool[];
  private servers: readonly ConfiguredServer[];
  private problems: string[];
  private readonly watchers = new Set<(change: McpChange) => void>();
  /** Whether the list read last has been told to the watchers. */
  private announced = false;

  constructor(private readonly options: McpManagerOptions) {
    const loaded = options.load();
    ({ servers: this.servers, problems: this.problems } = loaded);
    for (const name of loaded.disabled ?? []) this.off.set(name, "disabled");
  }

  get size(): number {
    return this.servers.length;
  }

  /** Tells `listener` of every change from now on; returns its removal. */
  watch(listener: (change: McpChange) => void): () => void {
    this.watchers.add(listener);
    return () => void this.watchers.delete(listener);
  }

  private tell(change: McpChange): void {
    for (const watcher of this.watchers) watcher(change);
  }

  private tellState(connection: McpConnection): void {
    if (this.connections.get(connection.name) !== connection) return;
    this.tell({ kind: "status", name: connection.name, state: connection.state, ...(connection.error ? { error: connection.error } : {}) });
  }

  /**
   * Starts every server that is not running yet; returns at once. Problems in the files are reported first.
   * `now`: servers with a cached list start at once too (the user asked: /mcp enable, /mcp reload).
   */
  start(now = false): void {
    for (const problem of this.problems.splice(0)) this.options.warn(problem);
    for (const server of this.servers) {
      if (this.off.has(server.name) || this.connections.has(server.name)) continue;
      const { cache } = this.options;
      let cached = cache?.read(server);
      const connection: McpConnection = new McpConnection(server, {
        ...(cached ? { cached } : {}),
        ...(cache
          ? {
              onLiveList: (live: NonNullable<typeof cached>) => {
                if (cache.update(server, live, cached)) this.invalidate(connection);
                cached = live;
              },
            }
          : {}),
        env: this.options.env,
        envValueMode: this.envValueMode,
        cwd: this.options.cwd,
        secretEnvVars: this.options.secretEnvVars,
        clientVersion: this.options.clientVersion,
        ...(this.options.elicit ? { elicit: this.options.elicit } : {}),
        onToolsChanged: () => this.invalidate(connection),
        onFailure: (message) => {
          this.options.warn(`MCP server ${server.name} stopped: ${message}`);
          this.tellState(connection);
        },
      });
      this.connections.set(server.name, connection);
      this.toolCache = undefined; // a cached list is offered at once
      let launched = false;
      const launch = () => {
        if (launched) return;
        launched = true;
        if (this.pendingLaunches.get(server.name) === launch) this.pendingLaunches.delete(server.name);
        if (this.connections.get(server.name) !== connection) return;
        void connection.ready.then(() => {
          if (this.connections.get(server.name) !== connection) return;
          this.toolCache = undefined;
          if (connection.state === "failed") this.options.warn(`MCP server ${server.name} failed to start: ${connection.error ?? "unknown error"}`);
          this.tellState(connection);
        });
      };
      // With its tools known from last time nothing waits for the server, so it starts once the session's own
      // start-up work is done (a call of one of its tools starts it sooner); a short `-p` run never pays for it.
      if (cached && !now) {
        this.pendingLaunches.set(server.name, launch);
        this.deferred.push(setTimeout(launch, deferredStartMs(this.options.env)).unref());
      } else launch();
      // A server started after the list was told (/mcp enable) is told on its own.
      if (this.announced) this.tellState(connection);
    }
    if (!this.announced) {
      this.announced = true;
      this.tell({ kind: "loaded", servers: this.list() });
    }
  }

  private invalidate(connection: McpConnection): void {
    if (this.connections.get(connection.name) === connection) this.toolCache = undefined;
  }

  /** The tools of every connected server, in configuration order. */
  tools(): AnyTool[] {
    this.toolCache ??= [...this.connections.values()].flatMap((connection) =>
      connection.offeredTools.map((info) => createMcpTool(connection, info, this.options.tasks)),
    );
    return this.toolCache;
  }

  /**
   * Waits up to `boundMs` for servers still starting whose tools are not known yet (no cached list); names
   * those that were not ready by then. A server with a cached list is not waited for: its tools are offered
   * already, and a call to one waits for the server instead.
   */
  async waitForStartup(boundMs: number, signal?: AbortSignal, options: { cachedToo?: boolean } = {}): Promise<string[]> {
    const starting = [...this.connections.values()].filter(
      (connection) => connection.state === "starting" && (options.cachedToo === true || !connection.hasCachedTools),
    );
    return this.waitFor(starting, boundMs, signal);
  }

  /** Whether the prompt names a server that is still starting (so waitForPrompt would wait for it). */
  namesStarting(prompt: string): boolean {
    return [...this.connections.values()].some((connection) => connection.state === "starting" && namesServer(prompt, connection.name));
  }

  /**
   * Waits for the servers a prompt needs: with `first` (the session's first prompt), every server still
   * starting whose tools are not known yet (no cached list); always, the servers the prompt names, whose
   * deferred start is made at once. Each is waited for until it is connected or has failed, which its start
   * timeout bounds; `capMs` bounds the whole wait. Resolves to the names of those still starting at the end.
   */
  async waitForPrompt(prompt: string, options: { first: boolean; capMs?: number; signal?: AbortSignal }): Promise<string[]> {
    const needed = [...this.connections.values()].filter(
      (connection) => connection.state === "starting" && ((options.first && !connection.hasCachedTools) || namesServer(prompt, connection.name)),
    );
    for (const connection of needed) this.pendingLaunches.get(connection.name)?.();
    return this.waitFor(needed, options.capMs, options.signal);
  }

  private async waitFor(starting: McpConnection[], boundMs: number | undefined, signal?: AbortSignal): Promise<string[]> {
    if (starting.length === 0) return [];
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(starting.map((connection) => connection.ready)),
      new Promise<void>((resolve) => {
        if (boundMs !== undefined) timer = setTimeout(resolve, boundMs);
        signal?.addEventListener("abort", () => resolve(), { once: true });
      }),
    ]);
    clearTimeout(timer);
    return starting.filter((connection) => connection.state === "starting").map((connection) => connection.name);
  }

  /** What connected servers ask the model to know, when the user allowed it. */
  instructions(): { server: string; text: string }[] {
    if (!this.options.allowInstructions) return [];
    return [...this.connections.values()]
      .filter((connection) => connection.currentInstructions)
      .map((connection) => ({ server: connection.name, text: connection.currentInstructions as string }));
  }

  list(): ServerStatus[] {
    return this.servers.map((server) => {
      const connection = this.connections.get(server.name);
      const state: ServerState = this.off.get(server.name) ?? connection?.state ?? "starting";
      return {
        name: server.name,
        transport: server.transport,
        source: server.source,
        state,
        ...(connection?.error && state === "failed" ? { error: connection.error } : {}),
        tools: !this.off.has(server.name) && connection ? connection.offeredTools.map((tool) => mcpToolName(server.name, tool.name)) : [],
        stderrTail: connection?.stderrTail ?? [],
        target: server.transport === "stdio" ? [server.config.command, ...(server.config.args ?? [])].join(" ") : (server.config.url ?? ""),
      };
    });
  }

  has(name: string): boolean {
    return this.servers.some((server) => server.name === name);
  }

  /** Stops a server for this session: `disabled` (/mcp disable), or `stopped` (until it is enabled again). */
  async disable(name: string, as: "disabled" | "stopped" = "disabled"): Promise<void> {
    this.off.set(name, as);
    const connection = this.connections.get(name);
    this.connections.delete(name);
    this.toolCache = undefined;
    await connection?.close();
    this.tell({ kind: "status", name, state: as });
  }

  /** How servers started after this read their `env` values; a running server keeps the environment it has. */
  setEnvValueMode(mode: EnvValueMode): void {
    this.envValueMode = mode;
  }

  /** Whether the server is running and connected now. */
  isRunning(name: string): boolean {
    return this.connections.get(name)?.state === "connected";
  }

  /**
   * A connected server's tools as it names them (its configured `tools` filter applied), with the MCP Apps
   * metadata (`_meta.ui`) it gives, or undefined when it is not connected.
   */
  toolsOf(name: string): { name: string; description?: string; ui?: unknown }[] | undefined {
    const connection = this.connections.get(name);
    if (connection?.state !== "connected") return undefined;
    return connection.offeredTools.map((tool) => ({
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      ...(tool._meta?.ui ? { ui: tool._meta.ui } : {}),
    }));
  }

  /** Starts a server disabled or stopped for this session (or restarts a failed one). */
  enable(name: string): void {
    this.off.delete(name);
    const connection = this.connections.get(name);
    if (connection?.state === "failed") {
      this.connections.delete(name);
      void connection.close();
    }
    this.start(true);
  }

  /** Stops every server, reads the configuration again and starts its servers. */
  async reload(): Promise<void> {
    await this.close();
    ({ servers: this.servers, problems: this.problems } = this.options.load());
    this.toolCache = undefined;
    this.announced = false;
    this.start(true);
  }

  async close(): Promise<void> {
    for (const timer of this.deferred.splice(0)) clearTimeout(timer);
    this.pendingLaunches.clear();
    const all = [...this.connections.values()];
    this.connections.clear();
    this.toolCache = undefined;
    await Promise.all(all.map((connection) => connection.close()));
  }
}
