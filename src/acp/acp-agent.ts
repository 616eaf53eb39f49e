/**
 * `agent --acp`: the Agent Client Protocol's agent side (the ACP library does the JSON-RPC and the framing).
 * Sessions are the engine's, opened through the session manager; each is bound to an AcpSession that turns
 * its events into updates and its questions into permission requests.
 */
import { statSync } from "node:fs";
import path from "node:path";
import {
  agent,
  PROTOCOL_VERSION,
  RequestError,
  type AgentConnection,
  type ClientCapabilities,
  type McpServer,
  type SessionInfo,
  type SessionModeState,
  type Stream,
} from "@agentclientprotocol/sdk";
import type { SessionManager } from "../core/session-manager.js";
import type { AgentMode } from "../protocol/events/index.js";
import type { InteractionKind } from "../protocol/interactions.js";
import { AcpSession } from "./acp-session.js";
import { availableCommands } from "./available-commands.js";
import { acpCanAnswer } from "./client-questions.js";
import { clientBackends } from "./client-backends.js";
import { mcpConfigOf } from "./mcp-servers.js";
import { MODEL_OPTION_ID } from "./model-option.js";
import { makePrivateDir, writePrivateFile } from "../util/private-files.js";

export interface AcpAgentOptions {
  /**
   * The engine, possibly still loading: `initialize` is answered without waiting for it. It holds every
   * session; its defaults' MCP options (the command line's) are where a client's servers are added.
   */
  manager: SessionManager | Promise<SessionManager>;
  version: string;
  log(message: string): void;
}

const MODES: SessionModeState["availableModes"] = [
  { id: "interactive", name: "Interactive", description: "Ask before acting; answer and stop when the request is handled." },
  { id: "plan", name: "Plan", description: "Analyse and write a plan for review before changing anything." },
  { id: "autopilot", name: "Autopilot", description: "Work on until the task is done." },
];

const modes = (current: AgentMode): SessionModeState => ({ currentModeId: current, availableModes: MODES });

function checkCwd(cwd: string): void {
  let isDir = false;
  try {
    isDir = path.isAbsolute(cwd) && statSync(cwd).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path to a directory: ${cwd}`);
}

const IMAGE_EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };

export class AcpAgent {
  private readonly sessions = new Map<string, AcpSession>();
  private capabilities: ClientCapabilities | undefined;
  private connection: AgentConnection | undefined;
  private images = 0;
  /** The manager once loaded (every session was opened through it, so it is there when one exists). */
  private loaded: SessionManager | undefined;

  constructor(private readonly options: AcpAgentOptions) {}

  /** Serves one client on the stream until it goes away. */
  connect(stream: Stream): AgentConnection {
    const app = agent({ name: "agent" })
      .onRequest("initialize", ({ params }) => {
        this.capabilities = params.clientCapabilities;
        return {
          protocolVersion: Math.min(params.protocolVersion, PROTOCOL_VERSION),
          agentCapabilities: {
            loadSession: true,
            promptCapabilities: { image: true, audio: false, embeddedContext: true },
            mcpCapabilities: { http: true, sse: true },
            sessionCapabilities: { list: {}, close: {}, resume: {}, delete: {} },
          },
          agentInfo: { name: "agent", title: "agent", version: this.options.version },
          authMethods: [],
        };
      })
      .onRequest("session/new", async ({ params }) => {
        const session = await this.open(params.cwd, params.mcpServers);
        return { sessionId: session.id, modes: modes(session.mode), configOptions: session.acp.configOptions() };
      })
      .onRequest("session/load", async ({ params }) => {
        const manager = await this.manager();
        if (!manager.store.exists(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
        // Loading a session this process holds starts it afresh from its log.
        await this.close(params.sessionId);
        const session = await this.open(params.cwd, params.mcpServers, params.sessionId);
        await session.acp.replay(session.history);
        return { modes: modes(session.mode), configOptions: session.acp.configOptions() };
      })
      .onRequest("session/resume", async ({ params }) => {
        const manager = await this.manager();
        if (!manager.store.exists(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
        // Resuming without a replay: the client keeps what it shows; a session this process holds goes on as it is.
        const bound = this.sessions.get(params.sessionId);
        const held = manager.attach(params.sessionId);
        if (held && bound) return { modes: modes(held.mode), configOptions: bound.configOptions() };
        const session = await this.open(params.cwd, params.mcpServers, params.sessionId);
        return { modes: modes(session.mode), configOptions: session.acp.configOptions() };
      })
      .onRequest("session/delete", async ({ params }) => {
        const manager = await this.manager();
        if (!manager.store.exists(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
        const refused = await manager.delete(params.sessionId);
        if (refused !== undefined) throw RequestError.invalidRequest({ sessionId: params.sessionId }, refused);
        return {};
      })
      .onRequest("session/list", async ({ params }) => {
        const stored = await (await this.manager()).list();
        const sessions: SessionInfo[] = stored
          .filter((meta) => !params.cwd || meta.cwd === params.cwd)
          .map((meta) => ({
            sessionId: meta.id,
            cwd: meta.cwd,
            ...(meta.name || meta.firstPrompt ? { title: meta.name ?? meta.firstPrompt } : {}),
            updatedAt: meta.updatedAt,
          }));
        return { sessions };
      })
      .onRequest("session/close", async ({ params }) => {
        if (!this.sessions.has(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
        await this.close(params.sessionId);
        return {};
      })
      .onRequest("session/set_mode", ({ params }) => {
        const session = this.loaded?.get(params.sessionId);
        if (!session) throw RequestError.sessionNotFound(params.sessionId);
        if (!MODES.some((mode) => mode.id === params.modeId)) throw RequestError.invalidParams({ modeId: params.modeId }, `Unknown mode ${params.modeId}`);
        session.dispatch({ type: "set_mode", mode: params.modeId as AgentMode });
        return {};
      })
      .onRequest("session/set_config_option", ({ params }) => {
        const session = this.loaded?.get(params.sessionId);
        const bound = this.sessions.get(params.sessionId);
        if (!session || !bound) throw RequestError.sessionNotFound(params.sessionId);
        if (params.configId !== MODEL_OPTION_ID || typeof params.value !== "string") {
          throw RequestError.invalidParams({ configId: params.configId }, `Unknown option ${params.configId}`);
        }
        session.dispatch({ type: "set_model", model: params.value });
        return { configOptions: bound.configOptions() };
      })
      .onRequest("session/prompt", async ({ params }) => {
        const session = this.sessions.get(params.sessionId);
        if (!session) throw RequestError.sessionNotFound(params.sessionId);
        return { stopReason: await session.prompt(params.prompt) };
      })
      .onNotification("session/cancel", ({ params }) => {
        this.sessions.get(params.sessionId)?.cancel();
      });
    this.connection = app.connect(stream);
    return this.connection;
  }

  /** Ends every session (the client went away); resolves when their logs are closed. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  /** The questions the editor can be asked (client-questions.ts says which); the rest get their headless answer. */
  private canAnswer(kind: InteractionKind): boolean {
    return acpCanAnswer(this.capabilities, kind);
  }

  private async manager(): Promise<SessionManager> {
    this.loaded ??= await this.options.manager;
    return this.loaded;
  }

  /** Ends a session this client holds: the binding first, so nothing more is sent for it. */
  private async close(id: string): Promise<void> {
    this.unbind(id);
    await this.loaded?.close(id);
  }

  private unbind(id: string): void {
    this.sessions.get(id)?.close();
    this.sessions.delete(id);
  }

  private async open(cwd: string, mcpServers: readonly McpServer[] | undefined, resumeId?: string) {
    checkCwd(cwd);
    const { log } = this.options;
    const manager = await this.manager();
    const client = this.connection?.client;
    if (!client) throw RequestError.internalError(undefined, "Not connected.");
    let id = resumeId ?? "";
    let bound: AcpSession | undefined;
    const backends = clientBackends({ client, capabilities: this.capabilities, sessionId: () => id, update: (update) => bound?.update(update) });
    const clientServers = mcpConfigOf(mcpServers);
    const flags = manager.defaults.mcp;
    const mcp = clientServers ? { ...flags, additional: [...(flags?.additional ?? []), clientServers] } : undefined;
    const opened = await manager.open({
      cwd,
      canAnswer: (kind) => this.canAnswer(kind),
      ...(resumeId ? { resumeId } : {}),
      ...(mcp ? { mcp } : {}),
      ...(backends ? { toolBackends: backends } : {}),
    });
    id = opened.session.id;
    bound = new AcpSession({
      client,
      session: opened.session,
      canAnswer: (kind) => this.canAnswer(kind),
      log,
      saveImage: (data, mimeType) => this.saveImage(id, data, mimeType),
      ...(this.connection ? { disconnected: this.connection.signal } : {}),
    });
    this.sessions.set(id, bound);
    // Closed elsewhere (deleted, ended): the binding goes with it.
    opened.session.subscribe((event) => {
      if (event.type === "session.shutdown" && !event.agentId && this.sessions.get(id) === bound) this.unbind(id);
    });
    const commands = await availableCommands();
    // After the answer to session/new: a client cannot place updates for a session it has not heard of yet.
    setImmediate(() => {
      bound.update({ sessionUpdate: "available_commands_update", availableCommands: commands });
      bound.announceModels();
    });
    return { id, acp: bound, history: opened.history, mode: opened.session.mode };
  }

  /** An image the client sent, kept in the session's folder so the model can be pointed at it. */
  private saveImage(sessionId: string, data: Buffer, mimeType: string): string {
    const dir = path.join((this.loaded as SessionManager).store.dirOf(sessionId), "files");
    makePrivateDir(dir);
    const file = path.join(dir, `image-${++this.images}.${IMAGE_EXTENSIONS[mimeType] ?? "bin"}`);
    writePrivateFile(file, data);
    return file;
  }
}
