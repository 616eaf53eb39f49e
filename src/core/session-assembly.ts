/**
 * Building a session's collaborators, once, from its options: the services every part shares (the
 * permission gate and the interaction broker, the shells, the database, the MCP servers, the hooks, the
 * tools, the agents, the workspace) and the parts of the session around them (its controls, its tools per
 * agent, its subagents, its main agent). open-session.ts opens the log around this; AgentSession is the
 * facade over what is built here. Over 300 lines: it is the one place a session's parts are wired, in the
 * order they depend on each other, and splitting the wiring would hide that order.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import type { McpTaskHost } from "../mcp/index.js";
import { createAgentMcpManager, createMcpManager, type ElicitationAsk } from "../mcp/index.js";
import { RememberedApprovals } from "../permissions/permissions-config.js";
import { PathGate } from "../permissions/paths.js";
import { PermissionLocations } from "./permission-locations.js";
import type { EventLog } from "../session/event-log-reader.js";
import { isValidSessionId } from "../session/session-store.js";
import { SessionMemory, type SessionMemoryOptions } from "../memory/session-memory.js";
import { sessionExtensions } from "./skills/session-extensions.js";
import { childSkills } from "./skills/child-skills.js";
import { ShellManager } from "../tools/bash/index.js";
import { createBuiltinTools } from "../tools/builtin-tools.js";
import { createSqlTool, SessionDatabase } from "../tools/sql/index.js";
import type { AgentMcpFactory } from "./agent-mcp.js";
import { AgentCatalog, reportAgentFileProblems } from "./agents/agent-catalog.js";
import { createChildAgent, type ChildAgent, type ChildAgentSpec } from "./child-agent.js";
import type { Conversation } from "./conversation.js";
import type { RewindHistory } from "./rewind/rewind-history.js";
import { loadCustomInstructions } from "./custom-instructions.js";
import type { EventSink } from "./event-sink.js";
import { fleetDeployedMessage } from "./fleet/fleet-prompt.js";
import { InteractionBroker } from "./interaction-broker.js";
import { MainAgent } from "./main-agent.js";
import type { AgentMode, WorkingDirectoryContext } from "../protocol/events/index.js";
import { planFile } from "./modes.js";
import type { OpenSessionOptions } from "./open-session.js";
import { researchFolder } from "./orchestrate/research-folder.js";
import { createExitPlanModeTool } from "./plan/exit-plan-mode.js";
import { PermissionBroker } from "./permission-broker.js";
import { SessionWorkspace } from "./session-admin/session-workspace.js";
import { SessionControls } from "./session-controls.js";
import { SessionMetrics } from "./session-metrics.js";
import type { SessionStateFold } from "./state/state-fold.js";
import { TurnCounter, type SessionServices, type SessionStart } from "./session-services.js";
import { SessionTools } from "./session-tools.js";
import { JoinedClientTools } from "./client-tools.js";
import { DEFAULT_SUBAGENT_LIMITS, SessionSubagents } from "./tasks/session-subagents.js";

declare const AGENT_VERSION: string;
export const agentVersion = (): string => (typeof AGENT_VERSION === "string" ? AGENT_VERSION : "0.0.0-dev");

/** What opening the session made before its collaborators: its place, its log (read and written), its folds. */
export interface OpenedLog {
  id: string;
  dir: string;
  context: WorkingDirectoryContext;
  /** The log read on a resume. */
  log?: EventLog;
  sink: EventSink;
  conversation: Conversation;
  /** The session's state, folded from the log (a resume) and then from every event. */
  state: SessionStateFold;
  rewind: RewindHistory;
  syncLog(): void;
  /** Closes the log and releases the session's lock. */
  closeLog(): void;
}

/** What only the session itself can do, for the collaborators built before it (the plan tool, MCP tasks). */
export interface SessionHandle {
  setMode(mode: AgentMode): void;
  mcpTasks(): McpTaskHost;
}

export async function assembleServices(options: OpenSessionOptions, opened: OpenedLog, session: SessionHandle): Promise<SessionServices> {
  const { id, dir, context, sink, log } = opened;
  const { flags } = options.permissions;
  const interactions = new InteractionBroker({ canAnswer: options.canAnswer ?? (() => options.interactive) });
  const remembered = new RememberedApprovals(options.agentHome, realpathSync(options.cwd));
  const permissions = new PermissionBroker({
    policy: {
      rules: options.permissions.rules,
      allowAllTools: flags.allowAllTools,
      allowAllPaths: flags.allowAllPaths,
      allowAllUrls: flags.allowAllUrls,
      disabledFloorChecks: new Set(options.permissions.disabledFloorChecks),
      // The session's own files (research reports) are written without asking, as a rule of the policy.
      ownFolders: [researchFolder(realpathSync(dir))],
      ...mcpReadOnlyPolicy(options.permissions.mcpReadOnly),
      ...(options.permissions.askReadOnly ? { askReadOnly: true } : {}),
    },
    environment: {
      cwd: options.cwd,
      env: process.env,
      gate: new PathGate({ cwd: options.cwd, addDirs: flags.addDir, extraRoots: [dir], disallowTempDir: flags.disallowTempDir }),
    },
    remembered,
    interactions,
    ...(options.explainAdvice ? { explainAdvice: options.explainAdvice } : {}),
    ...(flags.allowAllSources ? { allowAllSources: flags.allowAllSources } : {}),
  });
  if (log) permissions.restoreChangedFiles(log.events);

  const shells = new ShellManager();
  // One database per session, shared by all its agents; sql.js loads on the first sql call, not here.
  const database = new SessionDatabase(path.join(dir, "session.db"));
  database.onChange((todos) => sink.emit("session.todos_changed", { todos }));
  // Faces see the background shells change (a call that left one running, one that ended).
  let shellsTold = "[]";
  const stopWatchingShells = shells.onBackgroundChange(() => {
    const list = shells.backgroundShells();
    const told = JSON.stringify(list);
    if (told === shellsTold) return;
    shellsTold = told;
    sink.emit("session.background_tasks_changed", { shells: list });
  });
  const mcpOptions = {
    env: process.env,
    cwd: options.cwd,
    secretEnvVars: options.mcp?.secretEnvVars ?? [],
    clientVersion: agentVersion(),
    allowInstructions: options.mcp?.allowAllInstructions === true,
    // A server's form goes to whoever answers questions; with nobody to ask, the broker declines at once.
    elicit: async ({ serverName, message, requestedSchema }: ElicitationAsk, signal: AbortSignal) => {
      const { reply } = await interactions.ask(
        "elicitation",
        { message, requestedSchema, elicitationSource: serverName, mode: "form" },
        { emit: sink.emit, signal },
      );
      return reply.action === "accept"
        ? { action: "accept" as const, ...(reply.content ? { content: reply.content as Record<string, string | number | boolean | string[]> } : {}) }
        : { action: reply.action };
    },
    warn: (message: string) => sink.emit("session.warning", { warningType: "mcp", message }),
    // Tools that require task support run as background records of the session (called only once it exists).
    tasks: { start: (...args) => session.mcpTasks().start(...args) } satisfies McpTaskHost,
  };
  // Where folder trust is read from: every program a file names (repository MCP files, agent files' servers) asks it.
  const trust = {
    agentHome: options.agentHome,
    ...(options.copilotHome ? { copilotHome: options.copilotHome } : {}),
    ...(options.trustedThisSession ? { trustedThisSession: options.trustedThisSession } : {}),
  };
  // Skills and plugins (issue 19): the plugins this session runs with, their servers and agents, and its skills.
  const extensions = sessionExtensions({
    ...trust,
    cwd: options.cwd,
    ...(context.gitRoot ? { gitRoot: context.gitRoot } : {}),
    ...(options.skills ? { settings: options.skills } : {}),
    emit: sink.emit,
    setRules: (rules) => permissions.setSkillRules(rules),
  });
  const mcp = createMcpManager(
    { ...trust, cwd: options.cwd, workspace: context.gitRoot, additional: options.mcp?.additional, disabled: options.mcp?.disabled, plugins: extensions.mcp },
    mcpOptions,
  );
  // A custom agent's own servers (`mcp-servers`), started when that agent runs.
  const agentMcp: AgentMcpFactory = (agentName, servers) =>
    createAgentMcpManager(agentName, servers, { ...mcpOptions, agentHome: options.agentHome, disabled: options.mcp?.disabled ?? [] });
  // The hook engine loads only for a session that has hooks (or hook files that failed to load, to report them).
  const hooks =
    options.hooks && (options.hooks.definitions.length > 0 || options.hooks.problems.length > 0)
      ? new (await import("./session-hooks.js")).SessionHooks(options.hooks, {
          sessionId: id,
          cwd: options.cwd,
          transcriptPath: options.store.eventsFileOf(id),
        })
      : undefined;
  if (hooks && (hooks.has("errorOccurred") || hooks.has("notification"))) sink.addInternal((event) => hooks.observe(event, sink.emit));

  // memory: loaded (store, board, tools) only when it is on.
  const memory = options.memory ? new SessionMemory(sessionMemoryOptions(options, id)) : undefined;
  await memory?.start();

  const metrics = new SessionMetrics((changed) => sink.emit("session.usage_checkpoint", changed.checkpoint()));
  const instructions = [
    ...(options.customInstructions ? loadCustomInstructions({ cwd: options.cwd, gitRoot: context.gitRoot, agentHome: options.agentHome }) : []),
    ...(options.extraInstructions ?? []),
  ];
  const workspace = new SessionWorkspace({
    id,
    dir,
    context,
    emit: sink.emit,
    permissions,
    instructions,
    store: options.store,
    ...(memory ? { memory } : {}),
    ...(mcp ? { mcp } : {}),
    ...(options.deleteSession ? { deleteSession: options.deleteSession } : {}),
  });
  return {
    id,
    dir,
    sink,
    conversation: opened.conversation,
    rewind: opened.rewind,
    ...(options.toolStandIn ? { toolStandIn: options.toolStandIn } : {}),
    metrics,
    state: opened.state,
    turns: new TurnCounter(opened.state.state.turns),
    workspace,
    provider: options.provider,
    ...(options.createProvider ? { createProvider: options.createProvider } : {}),
    retry: options.providerConfig.retry,
    permissions,
    locations: new PermissionLocations(remembered, permissions),
    interactions,
    tools: [
      ...createBuiltinTools({ shells }),
      createSqlTool(database),
      createExitPlanModeTool({
        planFile: () => planFile(dir),
        setMode: (mode) => session.setMode(mode),
        unattendedAction: () => (options.autoAcceptPlan ? "autopilot" : undefined),
        fleetDeployed: (task) => sink.emit("session.info", { infoType: "fleet", message: fleetDeployedMessage(task) }),
      }),
      ...(options.extraTools ?? []),
    ],
    joinedTools: new JoinedClientTools(),
    toolFilter: { available: flags.availableTools, excluded: flags.excludedTools, defaultAgentExcluded: options.defaultAgentExcludedTools },
    agents:
      options.agents ??
      new AgentCatalog({
        ...trust,
        gitRoot: context.gitRoot,
        trust,
        plugins: extensions.agentDirs,
        onProblems: (problems) => reportAgentFileProblems(sink.emit, problems),
        ...(options.extraAgents ? { extra: options.extraAgents } : {}),
        ...(options.excludedBuiltinAgents ? { excludedBuiltins: options.excludedBuiltinAgents } : {}),
      }),
    ...(mcp ? { mcp } : {}),
    agentMcp,
    ...(hooks ? { hooks } : {}),
    database,
    shells,
    ...(options.toolBackends ? { toolBackends: options.toolBackends } : {}),
    ...(options.compaction ? { compaction: options.compaction } : {}),
    ...(options.systemPromptShape ? { systemPromptShape: options.systemPromptShape } : {}),
    ...(memory ? { memory } : {}),
    skills: extensions.skills,
    subagentLimits: options.subagentLimits ?? DEFAULT_SUBAGENT_LIMITS,
    interactive: options.interactive,
    maxAutopilotContinues: options.maxAutopilotContinues,
    autoAcceptPlan: options.autoAcceptPlan === true,
    syncLog: opened.syncLog,
    release: () => {
      stopWatchingShells();
      void shells.dispose();
      database.close();
      void mcp?.close();
      opened.closeLog();
    },
  };
}

/** The parts of a session around its services: its controls, the tools each agent is offered, its subagents, its main agent. */
export interface SessionParts {
  controls: SessionControls;
  toolbox: SessionTools;
  subagents: SessionSubagents;
  main: MainAgent;
  /** A subagent at `depth` (1: started by the main agent). */
  newChild(spec: ChildAgentSpec, depth: number): ChildAgent;
}

export function assembleParts(services: SessionServices, start: SessionStart): SessionParts {
  const { sink } = services;
  const controls = new SessionControls(services, start);
  const newChild = (given: ChildAgentSpec, depth: number): ChildAgent => {
    const skills = childSkills(services, (tool) => toolbox.offers(tool), given); // issue 19: its skill tool and preloaded skills
    const child = createChildAgent(services, skills.spec, {
      provider: controls.provider,
      tools: (emit) => toolbox.forSubagent([...subagents.childTools(depth, emit), ...skills.tools(emit)]),
      // The session runs in autopilot: nobody to ask when a subagent repeats itself (the repeat guard stops it).
      unattended: () => controls.preset.mode === "autopilot",
    });
    skills.preload();
    return child;
  };
  const toolbox: SessionTools = new SessionTools(services, controls, () => subagents.mainTools());
  const subagents: SessionSubagents = new SessionSubagents({
    agents: () => services.agents,
    limits: services.subagentLimits,
    availableModels: async (signal) => (controls.provider.listModels ? controls.provider.listModels(signal).catch(() => undefined) : undefined),
    sessionModel: () => controls.provider.model,
    newChild: (spec, depth) => newChild(spec, depth),
    notifyMain: (notification) => main.notify(notification),
    takeAllowance: (name) => services.memory?.takeAgentAllowance(name) === true, // memory: /subconscious run
    emit: sink.emit,
    sink,
  });
  const main: MainAgent = new MainAgent(services, { controls, toolbox, subagents });
  return { controls, toolbox, subagents, main, newChild };
}

/** settings.json `mcp.autoApproveReadOnly` as the permission policy takes it (absent when off). */
function mcpReadOnlyPolicy(setting: boolean | readonly string[] | undefined): { mcpReadOnly?: true | readonly string[] } {
  if (setting === true) return { mcpReadOnly: true };
  return Array.isArray(setting) && setting.length > 0 ? { mcpReadOnly: setting } : {};
}

/** What memory needs of a session being opened: its stores are the working directory's; a detached run reads its parent. */
function sessionMemoryOptions(options: OpenSessionOptions, id: string): SessionMemoryOptions {
  const { store } = options;
  const named = options.detachedFrom;
  const parent = named !== undefined && isValidSessionId(named) && store.exists(named) ? named : undefined;
  return {
    ...(options.memory as NonNullable<OpenSessionOptions["memory"]>),
    agentHome: options.agentHome,
    cwd: options.cwd,
    sessionId: parent ?? id,
    transcriptFile: store.eventsFileOf(parent ?? id),
    ...(options.detachedFrom !== undefined ? { unattended: true } : {}),
  };
}
