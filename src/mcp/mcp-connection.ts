/**
 * One MCP server: its transport, the SDK's client, its state and the tools it offers. Nothing here throws
 * at the session: a server that fails to start, crashes or hangs ends in state "failed" with a message
 * (and, for stdio, the tail of its stderr).
 *
 * The SDK (client, transports) is imported on first use, so a session without MCP servers never loads it.
 * HTTP and SSE servers use the SDK's transports. Stdio servers use StdioGroupTransport (execa, the SDK's
 * framing) rather than the SDK's StdioClientTransport, because that one signals only the child it spawned:
 * a server started through `npx` or a shell would leave its real process running after the session ends.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, ElicitRequest, ElicitResult, Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import { expandEnv, expandRecord, serverEnv, type EnvValueMode } from "./expand-env.js";
import { mcpSdk } from "./mcp-sdk.js";
import { StdioGroupTransport } from "./stdio-group-transport.js";
import type { ConfiguredServer } from "./mcp-config.js";
import type { CachedServer } from "./tool-cache.js";

export type ServerState = "starting" | "connected" | "failed" | "disabled" | "stopped";

export type { McpToolInfo, CallToolResult };

/** Lines of a stdio server's stderr kept for /mcp show and failure messages. */
const STDERR_LINES = 20;
/**
 * How long a server may take to answer `initialize` and `tools/list` before it is reported as hung: its own
 * `startupTimeout`, else AGENT_MCP_CONNECT_TIMEOUT_MS (for tests), else 30 s.
 */
function startupTimeoutMs(server: ConfiguredServer, env: NodeJS.ProcessEnv): number {
  if (server.config.startupTimeout !== undefined) return server.config.startupTimeout;
  const fromEnv = Number(env.AGENT_MCP_CONNECT_TIMEOUT_MS);
  return env.AGENT_MCP_CONNECT_TIMEOUT_MS !== undefined && Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 30_000;
}

/** The SDK's error code for a request that got no answer in time. */
const REQUEST_TIMEOUT = -32001;

export const inSeconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/** A server's form request, as the interaction broker gets it. */
export interface ElicitationAsk {
  serverName: string;
  message: string;
  requestedSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
}

export interface ConnectionDeps {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Variables kept out of stdio servers' inherited environment (--secret-env-vars). */
  secretEnvVars: readonly string[];
  clientVersion: string;
  /** How the server's `env` values are read (direct when absent). */
  envValueMode?: EnvValueMode;
  onToolsChanged(): void;
  /** Asks the user to fill in a server's form (elicitation); without it, servers are told forms are not supported. */
  elicit?(request: ElicitationAsk, signal: AbortSignal): Promise<ElicitResult>;
  /** The server failed after it had started (a crash): reported once. */
  onFailure(message: string): void;
  /** What the server offered last time (tool cache): offered while it starts, so nothing waits for it. */
  cached?: CachedServer;
  /** The live list (and instructions) once known, and again on every change: the cache keeps it. */
  onLiveList?(live: CachedServer): void;
}

export class McpConnection {
  state: ServerState = "starting";
  error?: string;
  tools: McpToolInfo[] = [];
  instructions?: string;
  private client?: Client;
  private readonly stderr: string[] = [];
  private closing = false;
  private started?: Promise<void>;

  constructor(
    readonly server: ConfiguredServer,
    private readonly deps: ConnectionDeps,
  ) {}

  /**
   * Settles once the server is connected or has failed; the first use starts it. (A server with a cached
   * list is started a little after the session, or by the first call of one of its tools.)
   */
  get ready(): Promise<void> {
    this.started ??= this.start();
    return this.started;
  }

  get launched(): boolean {
    return this.started !== undefined;
  }

  get name(): string {
    return this.server.name;
  }

  get stderrTail(): readonly string[] {
    return this.stderr;
  }

  /** The server's tools as configured (`tools: ["*"]`, a list, or `[]`). */
  get offeredTools(): McpToolInfo[] {
    const allowed = this.server.config.tools;
    const tools = this.state === "connected" ? this.tools : this.state === "starting" ? (this.deps.cached?.tools ?? []) : [];
    if (allowed === undefined || allowed.includes("*")) return tools;
    return tools.filter((tool) => allowed.includes(tool.name));
  }

  /** Whether its tools are known before it has started (a cached list), so the first request need not wait for it. */
  get hasCachedTools(): boolean {
    return this.deps.cached !== undefined;
  }

  /** The instructions it sent, or (while it starts) those it sent last time. */
  get currentInstructions(): string | undefined {
    return this.state === "connected" ? this.instructions : this.state === "starting" ? this.deps.cached?.instructions : undefined;
  }

  /** How long it may take to start (see startupTimeoutMs). */
  get startupTimeoutMs(): number {
    return startupTimeoutMs(this.server, this.deps.env);
  }

  private async start(): Promise<void> {
    // One bound for the whole start (loading the SDK, `initialize`, `tools/list`), so `ready` settles by then.
    const timeout = this.startupTimeoutMs;
    const deadline = Date.now() + timeout;
    const left = () => Math.max(1, deadline - Date.now());
    try {
      const [{ Client }, { ElicitRequestSchema }, transport] = await Promise.all([mcpSdk.client(), mcpSdk.types(), this.transport()]);
      // The session ended while the SDK loaded: nothing to start.
      if (this.closing) throw new Error("stopped before it started");
      const { elicit } = this.deps;
      const client = new Client(
        { name: "agent", version: this.deps.clientVersion },
        {
          ...(elicit ? { capabilities: { elicitation: { form: {} } } } : {}),
          listChanged: {
            tools: {
              debounceMs: 0,
              onChanged: (error, tools) => {
                if (error || !tools) return;
                this.tools = tools;
                this.deps.onLiveList?.({ tools, ...(this.instructions !== undefined ? { instructions: this.instructions } : {}) });
                this.deps.onToolsChanged();
              },
            },
          },
        },
      );
      if (elicit) client.setRequestHandler(ElicitRequestSchema, (request, extra) => this.elicit(elicit, request, extra.signal));
      client.onclose = () => this.lost("the connection closed");
      client.onerror = () => undefined; // transport hiccups surface as failed requests or onclose
      this.client = client;
      await client.connect(transport, { timeout: left() });
      this.instructions = client.getInstructions();
      this.tools = (await client.listTools(undefined, { timeout: left() })).tools;
      if (this.state === "starting") {
        this.state = "connected";
        this.deps.onLiveList?.({ tools: this.tools, ...(this.instructions !== undefined ? { instructions: this.instructions } : {}) });
      }
    } catch (error) {
      if (this.state === "starting") {
        this.state = "failed";
        const timedOut = (error as { code?: unknown }).code === REQUEST_TIMEOUT;
        this.error = timedOut
          ? `${this.describe(`timed out after ${inSeconds(timeout)} starting`)}; to wait longer, set "startupTimeout" (milliseconds) for ${this.name} in ${this.server.source}`
          : this.describe((error as Error).message ?? String(error));
      }
      await this.close();
    }
  }

  private async elicit(elicit: NonNullable<ConnectionDeps["elicit"]>, request: ElicitRequest, signal: AbortSignal): Promise<ElicitResult> {
    const params = request.params;
    // Only forms are offered (capabilities above); a URL request is declined rather than opened.
    if (params.mode === "url" || !("requestedSchema" in params)) return { action: "decline" };
    const schema = params.requestedSchema as ElicitationAsk["requestedSchema"];
    return elicit(
      {
        serverName: this.name,
        message: params.message,
        requestedSchema: { type: "object", properties: schema.properties ?? {}, ...(schema.required ? { required: schema.required } : {}) },
      },
      signal,
    );
  }

  private async transport() {
    const { server, deps } = this;
    const { config } = server;
    if (server.transport === "stdio") {
      const inherited = Object.fromEntries(
        Object.entries(deps.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !deps.secretEnvVars.includes(entry[0])),
      );
      const cwd = config.cwd ?? config.workingDirectory;
      return new StdioGroupTransport({
        command: expandEnv(config.command as string, deps.env),
        args: (config.args ?? []).map((arg) => expandEnv(arg, deps.env)),
        env: { ...inherited, ...serverEnv(config.env, deps.env, deps.envValueMode ?? "direct") },
        cwd: cwd ? expandEnv(cwd, deps.env) : deps.cwd,
        onStderr: (text) => this.keepStderr(text),
      });
    }
    const url = new URL(expandEnv(config.url as string, deps.env));
    const requestInit = { headers: expandRecord(config.headers, deps.env) };
    if (server.transport === "sse") {
      const { SSEClientTransport } = await mcpSdk.sse();
      return new SSEClientTransport(url, { requestInit });
    }
    const { StreamableHTTPClientTransport } = await mcpSdk.streamableHttp();
    return new StreamableHTTPClientTransport(url, { requestInit });
  }

  private keepStderr(text: string): void {
    for (const line of text.split("\n")) if (line.trim() !== "") this.stderr.push(line);
    if (this.stderr.length > STDERR_LINES) this.stderr.splice(0, this.stderr.length - STDERR_LINES);
  }

  private describe(message: string): string {
    const tail = this.stderr.slice(-3).join(" | ");
    return tail ? `${message} (stderr: ${tail})` : message;
  }

  private lost(why: string): void {
    if (this.closing || this.state === "disabled") return;
    if (this.state === "connected") {
      this.state = "failed";
      this.error = this.describe(`${why} (the server stopped)`);
      this.deps.onFailure(this.error);
      this.deps.onToolsChanged();
    }
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeout: number; onProgress(message: string): void; meta?: Record<string, unknown> },
  ): Promise<CallToolResult> {
    // Offered from the cache before the server was up: the call starts it if need be and waits for it
    // (start-up is bounded by the connect timeout).
    if (this.state === "starting") await this.ready;
    if (!this.client || this.state !== "connected") throw new Error(`MCP server ${this.name} is not connected${this.error ? `: ${this.error}` : ""}`);
    // Progress is reported as it arrives. (The SDK hands notifications to handlers a microtask after the
    // messages around them, so progress that arrives in the same chunk as the result is dropped: harmless.)
    const result = await this.client.callTool({ name, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) }, undefined, {
      signal: options.signal,
      timeout: options.timeout,
      onprogress: (progress) => {
        const amount = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
        options.onProgress(progress.message ? `${progress.message} (${amount})` : amount);
      },
    });
    return result as CallToolResult;
  }

  /**
   * Runs a tool that requires task support (MCP tasks, the SDK's experimental client API): the server makes a
   * task, its status messages are reported as progress, its result is returned. When `signal` fires the task
   * is cancelled on the server (tasks/cancel).
   */
  async callToolAsTask(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; onStatus(message: string): void },
  ): Promise<CallToolResult> {
    if (this.state === "starting") await this.ready;
    const client = this.client;
    if (!client || this.state !== "connected") throw new Error(`MCP server ${this.name} is not connected${this.error ? `: ${this.error}` : ""}`);
    let taskId: string | undefined;
    const cancel = () => {
      if (taskId !== undefined) void client.experimental.tasks.cancelTask(taskId).catch(() => undefined);
    };
    options.signal.addEventListener("abort", cancel, { once: true });
    try {
      for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args }, undefined, { signal: options.signal })) {
        if (message.type === "taskCreated") {
          taskId = message.task.taskId;
          if (options.signal.aborted) cancel();
        } else if (message.type === "taskStatus") options.onStatus(message.task.statusMessage ?? message.task.status);
        else if (message.type === "result") return message.result as CallToolResult;
        else throw message.error;
      }
      throw new Error("the task ended without a result");
    } finally {
      options.signal.removeEventListener("abort", cancel);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client?.close().catch(() => undefined);
  }
}
