/**
 * The server the Copilot SDK drives: one process, any number of client connections (one over stdio, or
 * several over TCP). This front answers the handshake itself and hands every session method to the
 * SessionHost, which is loaded (with the whole engine) in the background while the handshake is answered:
 * a client's `start()` never waits for the engine. Only the methods named here exist; anything else is
 * JSON-RPC "method not found".
 */
import type { MessageConnection } from "vscode-jsonrpc";
import { ResponseError } from "vscode-jsonrpc";
import type { ClientInference } from "./client-inference.js";
import type { ClientLink } from "./served-session.js";
import type { LifecycleNotification } from "./lifecycle.js";
import type { SessionHost } from "./session-host.js";
import { PROVIDER_METHODS } from "./methods/provider-method-names.js";
import { EVENT_LOG_METHODS, HISTORY_METHODS } from "./methods/history-and-interest-names.js";
import { AGENT_METHODS, MCP_CONFIG_METHODS, MCP_SESSION_METHODS, MCP_UNAVAILABLE_METHODS } from "./methods/method-names.js";
import { PERMISSION_METHODS, SCHEDULE_METHODS } from "./methods/session-control-method-names.js";
import { PERMISSION_LOCATION_METHODS } from "./methods/permission-location-names.js";
import { PLAN_METHODS, RUNTIME_METHODS, SESSIONS_METHODS } from "./methods/server-method-names.js";
import { SESSION_STATE_METHODS } from "./methods/session-state-names.js";
import { COMMAND_METHODS, SHELL_METHODS, TASK_METHODS, UI_METHODS } from "./methods/command-method-names.js";
import { PLUGIN_METHODS, SKILL_METHODS } from "./methods/skill-method-names.js";
import { DISCOVERY_METHODS } from "./methods/discovery-method-names.js";
import { SESSION_EXTRAS_METHODS } from "./methods/session-extras-names.js";
import { GITHUB_ACCOUNT_METHODS } from "./methods/github-account-names.js";

export const PROTOCOL_VERSION = 3;

/** The JSON-RPC error the real runtime answers a bad TCP connection token with. */
export const AUTHENTICATION_FAILED = -32002;

/** The methods the SessionHost answers. */
export const SESSION_METHODS = [
  "models.list",
  "session.create",
  "session.resume",
  "session.list",
  "session.getMetadata",
  "session.getLastId",
  "session.delete",
  "session.detach",
  "session.destroy",
  "session.getMessages",
  "session.send",
  "session.abort",
  "session.tools.handlePendingToolCall",
  "session.permissions.handlePendingPermissionRequest",
  "session.ui.handlePendingElicitation",
  "session.mode.get",
  "session.mode.set",
  "session.model.getCurrent",
  "session.model.switchTo",
  "session.options.update",
  "session.log",
  "session.history.listRewindPoints",
  "session.history.previewRewind",
  "session.history.rewind",
  "session.history.truncate",
  "session.workspaces.getWorkspace",
  "session.workspaces.listCheckpoints",
  "session.workspaces.readCheckpoint",
  "session.workspaces.listFiles",
  "session.workspaces.readFile",
  "session.workspaces.createFile",
  "session.workspaces.saveLargePaste",
  "session.workspaces.diff",
  "sessions.fork",
  "session.mcp.enable",
  "session.mcp.disable",
  "session.mcp.reload",
  ...AGENT_METHODS,
  ...MCP_SESSION_METHODS,
  ...MCP_UNAVAILABLE_METHODS,
  ...MCP_CONFIG_METHODS,
  ...PERMISSION_METHODS,
  ...PERMISSION_LOCATION_METHODS,
  ...SCHEDULE_METHODS,
  ...PROVIDER_METHODS,
  "tools.list",
  ...HISTORY_METHODS,
  ...EVENT_LOG_METHODS,
  ...SESSIONS_METHODS,
  ...RUNTIME_METHODS,
  ...PLAN_METHODS,
  ...SESSION_STATE_METHODS,
  ...COMMAND_METHODS,
  ...TASK_METHODS,
  ...SHELL_METHODS,
  ...UI_METHODS,
  ...SKILL_METHODS,
  ...PLUGIN_METHODS,
  ...DISCOVERY_METHODS,
  ...SESSION_EXTRAS_METHODS,
  ...GITHUB_ACCOUNT_METHODS,
] as const;
export type SessionMethod = (typeof SESSION_METHODS)[number];

export interface AgentServerOptions {
  version: string;
  /** Loads the engine (once); the server starts loading it as soon as it listens. */
  host(): Promise<SessionHost>;
  /** TCP: the token every connection must present in `connect` (COPILOT_CONNECTION_TOKEN). */
  connectionToken?: string;
  /** Where a client that carries model requests registers (llmInference.*); shared with the sessions. */
  inference?: ClientInference;
  /** The server was asked to stop (runtime.shutdown) and its sessions are closed: the process may end soon. */
  onShutdownRequest(): void;
  /**
   * A client's handshake (`connect`) has been answered and the answer written: the moment to load the engine, which
   * holds the process for a while (server-mode.ts), without keeping the client's `start()` waiting.
   */
  onHandshake?(): void;
}

export interface ServeOptions {
  /** TCP: the client must present the connection token in `connect`. */
  needsToken: boolean;
  /** Runs `run` once what the connection writes next (the answer of the request being handled) has reached its output. */
  afterWrite?(run: () => void): void;
}

export class AgentServer {
  private readonly links = new Set<ClientLink>();
  /** The clients past the handshake's token check: they hear every session's lifecycle. */
  private readonly admitted = new Set<ClientLink>();
  private loaded: SessionHost | undefined;

  constructor(private readonly options: AgentServerOptions) {}

  private async host(): Promise<SessionHost> {
    if (!this.loaded) {
      const host = await this.options.host();
      host.onLifecycle((notification) => this.broadcast(notification));
      this.loaded = host;
    }
    return this.loaded;
  }

  private broadcast(notification: LifecycleNotification): void {
    for (const link of this.admitted) {
      if (link.alive) void link.connection.sendNotification("session.lifecycle", notification).catch(() => undefined);
    }
  }

  /** Serves one client until its connection closes; resolves once its sessions are shut down. */
  serve(connection: MessageConnection, options: ServeOptions): Promise<void> {
    const link: ClientLink = { connection, alive: true };
    this.links.add(link);
    let authenticated = !options.needsToken || this.options.connectionToken === undefined;
    if (authenticated) this.admitted.add(link);
    const guard =
      <P, R>(handler: (params: P) => R | Promise<R>) =>
      async (params: P): Promise<R> => {
        if (!authenticated) throw new ResponseError(AUTHENTICATION_FAILED, "AUTHENTICATION_FAILED");
        return handler(params);
      };
    connection.onRequest("connect", (params: { token?: string } | undefined) => {
      if (options.needsToken && this.options.connectionToken !== undefined && params?.token !== this.options.connectionToken) {
        throw new ResponseError(AUTHENTICATION_FAILED, "AUTHENTICATION_FAILED");
      }
      authenticated = true;
      this.admitted.add(link);
      const onHandshake = this.options.onHandshake;
      if (onHandshake && options.afterWrite) options.afterWrite(onHandshake);
      else if (onHandshake) setImmediate(onHandshake);
      return { ok: true, protocolVersion: PROTOCOL_VERSION, version: this.options.version, taskKinds: [] };
    });
    connection.onRequest(
      "ping",
      guard((params: { message?: string } | undefined) => ({
        message: params?.message ? `pong: ${params.message}` : "pong",
        timestamp: new Date().toISOString(),
        protocolVersion: PROTOCOL_VERSION,
      })),
    );
    connection.onRequest(
      "status.get",
      guard(() => ({ version: this.options.version, protocolVersion: PROTOCOL_VERSION })),
    );
    connection.onRequest(
      "auth.getStatus",
      guard(() => ({ isAuthenticated: true, authType: "api-key", statusMessage: "agent uses the endpoint configured for each session" })),
    );
    connection.onRequest(
      "runtime.shutdown",
      guard(async () => {
        // Sessions end before the answer; the process ends when the client lets go (or shortly after).
        await this.closeAll();
        this.options.onShutdownRequest();
        return {};
      }),
    );
    const inference = this.options.inference;
    if (inference) {
      // Answered by the front: a client registers as the model transport in its start(), before any session.
      connection.onRequest(
        "llmInference.setProvider",
        guard(() => inference.setProvider(connection)),
      );
      connection.onRequest(
        "llmInference.httpResponseStart",
        guard((params: unknown) => inference.responseStart(params)),
      );
      connection.onRequest(
        "llmInference.httpResponseChunk",
        guard((params: unknown) => inference.responseChunk(params)),
      );
    }
    for (const method of SESSION_METHODS) {
      connection.onRequest(
        method,
        guard(async (params: unknown) => (await this.host()).handle(method, link, params)),
      );
    }
    connection.listen();
    return new Promise((resolve) => connection.onClose(() => void this.drop(link).then(resolve)));
  }

  /** The client is gone: its questions lapse, its turns are interrupted, its sessions closed. */
  private async drop(link: ClientLink): Promise<void> {
    this.admitted.delete(link);
    if (!this.links.delete(link)) return;
    link.alive = false;
    this.options.inference?.release(link.connection);
    await this.loaded?.drop(link);
  }

  /** Every session of every client, shut down (SIGTERM, stdin closed, runtime.shutdown). */
  async closeAll(): Promise<void> {
    for (const link of this.links) link.alive = false;
    await this.loaded?.closeAll();
  }
}
