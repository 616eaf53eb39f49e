/**
 * The sessions of every client, over the engine: opened, resumed, listed and deleted through the
 * SessionManager; every change a `dispatch`; the events the engine's own, forwarded by ServedSession. A
 * client that goes away takes its sessions down cleanly. Loaded by the AgentServer in the background, so
 * the handshake never waits for the engine.
 */
import { z } from "zod";
import { onFirstUse } from "../provider/plain-fields.js";
import { TURN_END_GRACE_MS, type SessionManager, type SessionView } from "../core/index.js";
import type { ProviderConfig } from "../config/provider-config.js";
import type { HookPolicy, HookSet } from "../hooks/hook-set.js";
import { requestHandover, watchHandoverRequests } from "../session/session-handover.js";
import { SessionLockedError } from "../session/session-lock.js";
import type { SessionMethod } from "./agent-server.js";
import type { ClientInference } from "./client-inference.js";
import { ServedSession, type ClientAbilities, type ClientLink } from "./served-session.js";
import { followLifecycle, type Announce } from "./lifecycle.js";
import { sessionInfo, matchesFilter } from "./session-info.js";
import { sessionMethods } from "./session-methods.js";
import { agentMethods } from "./methods/agent-methods.js";
import { mcpMethods } from "./methods/mcp-methods.js";
import { mcpUnavailableMethods } from "./methods/mcp-unavailable-methods.js";
import { scheduleMethods } from "./methods/schedule-methods.js";
import { modelInfo, providerMethods } from "./methods/provider-methods.js";
import { historyMethods } from "./history-methods.js";
import { workspaceMethods } from "./workspace-methods.js";
import { visibleEvents } from "../session/rewind/rewind-timeline.js";
import { toolMethods } from "./tool-methods.js";
import { historyMethods as handoffMethods } from "./methods/history-methods.js";
import { lazyFamily } from "./methods/owned-session.js";
import { eventLogMethods } from "./methods/event-log-methods.js";
import { runtimeMethods } from "./methods/runtime-methods.js";
import { planMethods } from "./methods/plan-methods.js";
import { gitHubAccountMethods } from "./methods/github-account-methods.js";
import { skillMethods } from "./methods/skill-methods.js";
import { MCP_CONFIG_METHODS } from "./methods/method-names.js";
import { PERMISSION_METHODS } from "./methods/session-control-method-names.js";
import { PERMISSION_LOCATION_METHODS } from "./methods/permission-location-names.js";
import { SESSIONS_METHODS } from "./methods/server-method-names.js";
import { SESSION_STATE_METHODS } from "./methods/session-state-names.js";
import { COMMAND_METHODS, SHELL_METHODS, TASK_METHODS, UI_METHODS } from "./methods/command-method-names.js";
import { PLUGIN_METHODS } from "./methods/skill-method-names.js";
import { DISCOVERY_METHODS } from "./methods/discovery-method-names.js";
import { SESSION_EXTRAS_METHODS } from "./methods/session-extras-names.js";
import { sessionRequest, type SessionRequestDefaults } from "./session-request.js";
import { joinOpenSession, untilIdle } from "./pending-work.js";
import { listSchema, readSessionConfig, sessionIdOf, type SessionConfig } from "./wire.js";

export interface SessionHostOptions extends Pick<SessionRequestDefaults, "provider" | "makeProvider"> {
  /** Holds every session; its defaults (working directory, permissions, MCP flags) are each client's starting point. */
  manager: SessionManager;
  /** The server's own endpoint, when it has one (models.list); sessions may bring theirs. */
  defaultProvider?: ProviderConfig;
  /** How long a question may wait for the client before it lapses. */
  questionTimeoutMs: number;
  /** The hook files' hooks for a session in this directory (the user's always, the repository's if trusted). */
  fileHooks?(cwd: string): Promise<HookSet | undefined>;
  /** The client that carries model requests, when one registered (llmInference.setProvider). */
  inference?: ClientInference;
  /** What a broken policy hook does (settings.json's policyHooksFailOpen), for the client's hooks too. */
  hookPolicy?: HookPolicy;
}

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  fork: z.looseObject({ sessionId: z.string(), toEventId: z.string().optional(), name: z.string().optional() }),
}));

/** How long a resume waits for another process to hand the session over before it is refused. */
const HANDOVER_WAIT_MS = 10_000;

function abilitiesOf(config: SessionConfig): ClientAbilities {
  return {
    streaming: config.streaming === true,
    subagentStreaming: config.includeSubAgentStreamingEvents !== false,
    requestPermission: config.requestPermission === true,
    requestUserInput: config.requestUserInput === true,
    requestElicitation: config.requestElicitation === true,
    requestExitPlanMode: config.requestExitPlanMode === true,
  };
}

type Handler = (link: ClientLink, params: unknown) => unknown;

export class SessionHost {
  readonly served = new Map<string, ServedSession>();
  private readonly handlers: Record<SessionMethod, Handler>;
  /** Each open session's watch for another process asking for it (session-handover.ts). */
  private readonly handoverWatches = new Map<ServedSession, () => void>();
  /** Where session.lifecycle notifications go (the AgentServer sends them to every client). */
  private announce: Announce = () => undefined;

  constructor(readonly options: SessionHostOptions) {
    const owned = (link: ClientLink, sessionId: string) => this.owned(link, sessionId);
    this.handlers = {
      "models.list": () => this.models(),
      "session.create": (link, params) => this.create(link, readSessionConfig(params)),
      "session.resume": (link, params) => this.resume(link, readSessionConfig(params)),
      "session.list": (_link, params) => this.list(listSchema().parse(params ?? {}).filter),
      "session.getMetadata": async (_link, params) => {
        const sessionId = sessionIdOf(params);
        const found = (await this.manager.store.list()).find((metadata) => metadata.id === sessionId);
        return found ? { session: sessionInfo(found) } : {};
      },
      "session.getLastId": async () => {
        const [latest] = await this.manager.list();
        return latest ? { sessionId: latest.id } : {};
      },
      "session.delete": async (_link, params) => {
        const sessionId = sessionIdOf(params);
        const refused = await this.manager.delete(sessionId, { graceMs: TURN_END_GRACE_MS });
        if (refused !== undefined) return { success: false, error: refused };
        this.announce({ type: "session.deleted", sessionId });
        return { success: true };
      },
      "session.detach": (link, params) => this.detach(link, params),
      "session.destroy": (link, params) => this.detach(link, params),
      // Only a session the client holds: after its disconnect the session is gone for it, as in Copilot.
      "session.getMessages": async (link, params) => {
        const sessionId = sessionIdOf(params);
        this.owned(link, sessionId);
        // What a rewind hid is not part of the session any more (events.jsonl keeps it). The reader (with the whole
        // event catalog's schemas) loads when first asked, not with the engine (docs/benchmarks.md).
        const { readEventLog } = await import("../session/event-log-reader.js");
        return { events: visibleEvents(readEventLog(this.manager.store.eventsFileOf(sessionId)).events) };
      },
      "sessions.fork": async (_link, params) => {
        const { sessionId, toEventId, name } = schemas().fork.parse(params);
        const forked = await this.manager.fork(sessionId, { ...(toEventId ? { toEventId } : {}), ...(name ? { name } : {}) });
        if (!forked.ok) throw new Error(forked.error);
        return { sessionId: forked.sessionId, ...(forked.name ? { name: forked.name } : {}) };
      },
      ...sessionMethods((link, sessionId) => this.owned(link, sessionId)),
      ...agentMethods(owned),
      ...mcpMethods(owned),
      ...mcpUnavailableMethods(owned),
      ...lazyFamily(MCP_CONFIG_METHODS, async () => (await import("./methods/mcp-config-methods.js")).mcpConfigMethods(options.manager.defaults)),
      ...lazyFamily(PERMISSION_METHODS, async () => (await import("./methods/permission-methods.js")).permissionMethods(owned)),
      ...lazyFamily(PERMISSION_LOCATION_METHODS, async () =>
        (await import("./methods/permission-location-methods.js")).permissionLocationMethods(owned, options.manager.defaults),
      ),
      ...scheduleMethods((link, sessionId) => this.owned(link, sessionId)),
      ...providerMethods((link, sessionId) => this.owned(link, sessionId), this.options.provider.env),
      ...historyMethods((link, sessionId) => this.owned(link, sessionId)),
      ...workspaceMethods((link, sessionId) => this.owned(link, sessionId)),
      ...toolMethods(),
      ...handoffMethods(
        (link, sessionId) => this.owned(link, sessionId),
        (sessionId) => this.manager.store.eventsFileOf(sessionId),
      ),
      ...eventLogMethods((link, sessionId) => this.owned(link, sessionId)),
      ...lazyFamily(SESSIONS_METHODS, async () =>
        (await import("./methods/sessions-methods.js")).sessionsMethods({
          manager: this.manager,
          close: (sessionId) => this.close(sessionId),
          resume: (link, sessionId) => this.resume(link, readSessionConfig({ sessionId })),
          deleted: (sessionId) => this.announce({ type: "session.deleted", sessionId }),
        }),
      ),
      ...runtimeMethods(),
      ...planMethods((link, sessionId) => this.owned(link, sessionId)),
      ...lazyFamily(SESSION_STATE_METHODS, async () =>
        (await import("./methods/session-state-methods.js")).sessionStateMethods(owned, (sessionId, errorReason) => this.close(sessionId, errorReason)),
      ),
      ...lazyFamily([...COMMAND_METHODS, ...UI_METHODS], async () => (await import("./methods/command-methods.js")).commandMethods(owned)),
      ...lazyFamily(TASK_METHODS, async () => (await import("./methods/task-methods.js")).taskMethods(owned)),
      ...lazyFamily(SHELL_METHODS, async () => (await import("./methods/shell-methods.js")).shellMethods(owned)),
      ...skillMethods((link, sessionId) => this.owned(link, sessionId)),
      ...lazyFamily(PLUGIN_METHODS, async () => (await import("./methods/plugin-methods.js")).pluginMethods(options.manager.defaults)),
      ...lazyFamily(DISCOVERY_METHODS, async () => (await import("./methods/discovery-methods.js")).discoveryMethods(options.manager.defaults)),
      ...lazyFamily(SESSION_EXTRAS_METHODS, async () => (await import("./methods/session-extras-methods.js")).sessionExtrasMethods(owned, options.manager)),
      ...gitHubAccountMethods(owned),
    };
  }

  get manager(): SessionManager {
    return this.options.manager;
  }

  onLifecycle(announce: Announce): void {
    this.announce = announce;
  }

  handle(method: SessionMethod, link: ClientLink, params: unknown): unknown {
    return this.handlers[method](link, params);
  }

  /** The client lets go of the session; it closes once no client holds it. */
  private async detach(link: ClientLink, params: unknown) {
    const sessionId = sessionIdOf(params);
    const served = this.served.get(sessionId);
    if (!served || served.detach(link)) await this.close(sessionId);
    return { success: true };
  }

  /** A session this client holds; anything else is an error for the client. */
  private owned(link: ClientLink, sessionId: string): ServedSession {
    const served = this.served.get(sessionId);
    if (!served?.session || !served.holds(link)) throw new Error(`Session not found for sessionId: ${sessionId}`);
    return served;
  }

  /** The server's own endpoint's models (sessions with a BYOK provider name theirs when they are created). */
  private async models() {
    const config = this.options.defaultProvider;
    if (!config) return { models: [] };
    const listed = await this.options
      .makeProvider(config)
      .listModels?.()
      .catch(() => undefined);
    return { models: (listed ?? [config.model]).map((id) => modelInfo(id, id, config.maxPromptTokens)) };
  }

  private async create(link: ClientLink, config: SessionConfig) {
    if (this.served.has(config.sessionId) || this.manager.store.exists(config.sessionId)) {
      throw new Error(`A session with id ${config.sessionId} already exists; resume it instead.`);
    }
    return this.open(link, config, undefined);
  }

  private async resume(link: ClientLink, config: SessionConfig) {
    const attached = this.manager.attach(config.sessionId);
    const open = this.served.get(config.sessionId);
    // The client that alone holds the idle session resumes it with what it says now (its MCP servers, agents,
    // tools…): the session is closed and opened again from its log with that configuration, as Copilot
    // reconfigures a live session.
    if (attached && open?.holds(link) && !attached.busy && open.detach(link)) {
      await this.close(config.sessionId);
      return this.open(link, config, config.sessionId);
    }
    if (attached && open) {
      // Open in this process already: the client attaches to it beside the others, seeing every event from now on.
      await joinOpenSession(link, config, open, attached, abilitiesOf(config));
      // A provider (or registry) given with the resume becomes the session's endpoint from the next request on.
      if (config.provider || config.providers || config.models) {
        const problem = open.models?.reconfigure(config);
        if (problem) throw new Error(problem);
        if (open.models) attached.dispatch({ type: "set_model", model: open.models.config.model, reconnect: true });
      }
      return { sessionId: config.sessionId, workspacePath: attached.dir, capabilities: capabilities(config) };
    }
    if (!this.manager.store.exists(config.sessionId)) throw new Error(`Session not found: ${config.sessionId}`);
    return this.open(link, config, config.sessionId);
  }

  private async open(link: ClientLink, config: SessionConfig, resumeId: string | undefined) {
    const served = new ServedSession(
      config.sessionId,
      link,
      abilitiesOf(config),
      this.options.questionTimeoutMs,
      (id) => this.manager.get(id),
      config.commands,
    );
    const { cwd: defaultCwd, permissions, mcp, skills } = this.manager.defaults;
    const defaults = { ...this.options, cwd: defaultCwd, permissions, ...(mcp ? { mcp } : {}), ...(skills ? { skills } : {}) };
    const fetch = this.options.inference?.fetchFor({ sessionId: config.sessionId });
    const { request, models } = sessionRequest(config, defaults, (sections) => served.transformSystemMessage(sections), {
      ...(fetch ? { fetch } : {}),
      token: (providerName) => served.providerToken(providerName),
    });
    served.models = models;
    this.served.set(config.sessionId, served);
    const cwd = request.cwd ?? defaultCwd;
    try {
      // The SDK's enableFileHooks: false (its "empty" mode) keeps hook files out; the client's hooks still run.
      const fromFiles = config.enableFileHooks === false ? undefined : await this.options.fileHooks?.(cwd);
      // The hook code loads for a session with hooks only (as for -p), not before every session's create can answer.
      const hooks = config.hooks
        ? (await import("./client-hooks.js")).withClientHooks(
            cwd,
            fromFiles,
            (hookType, input, signal) => served.invokeHook(hookType, input, signal),
            this.options.hookPolicy,
          )
        : fromFiles;
      const openRequest = {
        ...request,
        ...(resumeId
          ? {
              resumeId,
              sessionId: undefined,
              continuePendingWork: config.continuePendingWork === true,
              ...(config.disableResume ? { silentResume: true } : {}),
            }
          : {}),
        canAnswer: served.canAnswer,
        listeners: [served.onEvent],
        ...(hooks ? { hooks } : {}),
      };
      const { session } = await this.manager.open(openRequest).catch(async (error: unknown) => {
        // Held by another process: it is asked to hand the session over (an SDK server does once it is idle).
        if (!resumeId || !(error instanceof SessionLockedError) || error.pid === process.pid) throw error;
        if (!(await requestHandover(this.manager.store.dirOf(resumeId), HANDOVER_WAIT_MS))) throw error;
        return this.manager.open(openRequest);
      });
      this.handoverWatches.set(
        served,
        watchHandoverRequests(session.dir, () => void this.handOver(served)),
      );
      session.subscribe((event) => {
        if (event.type === "session.shutdown" && !event.agentId) this.forget(served);
      });
      // The client's own tools are its own: they leave the session with it (another client may bring them again).
      if (config.tools?.length) {
        const tools = { type: "join_client", client: served.clientId(link) ?? "", tools: config.tools, alreadyInUse: false } as const;
        session.dispatch({ ...tools, sessionWasActive: false, continuePendingWork: false, silent: true });
      }
      if (config.agent) {
        const problem = session.dispatch({ type: "select_agent", name: config.agent });
        if (problem) throw new Error(problem);
      }
      session.subscribe(await followLifecycle(session, resumeId === undefined, (notification) => this.announce(notification)));
      if (!link.alive) await this.close(config.sessionId);
      return { sessionId: session.id, workspacePath: session.dir, capabilities: capabilities(config) };
    } catch (error) {
      if (served.session) await this.manager.close(served.id);
      this.forget(served);
      throw error;
    }
  }

  /**
   * Another process asked for the session: it is closed once its turn (if one runs) has ended, which releases
   * its lock. Its clients here find it gone from then on, as after a delete.
   */
  private async handOver(served: ServedSession): Promise<void> {
    const session = served.session;
    if (!session) return;
    // A suspended session (its work waiting for a client that went away) is handed over at once.
    if (served.held) await untilIdle(session);
    if (this.served.get(served.id) === served) await this.close(served.id);
  }

  /**
   * The last client went away while the session's turn waits on a client (a permission, a client tool's call):
   * the session stays open, suspended, so that a client resuming it may continue that work. It closes once its
   * turn has ended with nobody holding it (a question lapses after questionTimeoutMs).
   */
  private suspend(served: ServedSession, session: SessionView): void {
    void untilIdle(session).then(() => {
      if (!served.held && this.served.get(served.id) === served) return this.close(served.id);
    });
  }

  private forget(served: ServedSession): void {
    this.handoverWatches.get(served)?.();
    this.handoverWatches.delete(served);
    served.dispose();
    if (this.served.get(served.id) === served) this.served.delete(served.id);
  }

  private async list(filter: Parameters<typeof matchesFilter>[1]) {
    const all = await this.manager.list();
    return { sessions: all.filter((metadata) => matchesFilter(metadata, filter)).map(sessionInfo) };
  }

  /**
   * Shuts a session down (its log closed, its lock released) and waits for its end hooks. A turn still
   * running is interrupted first and given a moment to end, so its log tells how it ended (abort).
   */
  async close(sessionId: string, errorReason?: string): Promise<void> {
    if (!this.manager.get(sessionId)) return;
    await this.manager.close(sessionId, { graceMs: TURN_END_GRACE_MS, ...(errorReason ? { reason: errorReason } : {}) });
    const served = this.served.get(sessionId);
    if (served) this.forget(served);
  }

  /** The client is gone: it lets go of its sessions, and those no other client holds are closed (their turns interrupted). */
  async drop(link: ClientLink): Promise<void> {
    const unheld: string[] = [];
    for (const served of this.served.values()) {
      if (!served.holds(link) || !served.detach(link)) continue;
      const session = served.session;
      if (session?.state.busy && served.waiting) this.suspend(served, session);
      else unheld.push(served.id);
    }
    await Promise.all(unheld.map((id) => this.close(id)));
  }

  /** Every session of every client, shut down (SIGTERM, stdin closed, runtime.shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.served.keys()].map((id) => this.close(id)));
    await this.manager.closeAll();
  }
}

function capabilities(config: SessionConfig) {
  return { ui: { elicitation: config.requestElicitation === true } };
}
