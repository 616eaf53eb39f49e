/**
 * A real session (the real engine, the real provider clients, real tools) against the scripted server, in a
 * temporary AGENT_HOME and working directory, on any wire (test-wire.ts). Tests script the model and assert
 * on the events.
 */
import type { HookSet } from "../../src/hooks/hook-set.js";
import { rmSync } from "node:fs";
import { tempDir } from "./temp-dirs.js";
import type { ProviderConfig } from "../../src/config/provider-config.js";
import type { AgentMode, EventType, SessionEvent, SessionEventOf } from "../../src/protocol/events/index.js";
import type { PermissionReply } from "../../src/protocol/interactions.js";
import type { OpenSessionOptions, ResumeReport } from "../../src/core/open-session.js";
import { composeSessionOptions } from "../../src/core/compose-session.js";
import { SessionManager } from "../../src/core/session-manager.js";
import { DEFAULT_SUBAGENT_LIMITS } from "../../src/core/tasks/limits.js";
import type { RetryPolicy } from "../../src/provider/retry.js";
import { SessionStore } from "../../src/session/session-store.js";
import type { Settings } from "../../src/config/settings.js";
import type { SessionPermissions } from "../../src/core/open-session.js";
import { buildRules, noPermissionFlags, type PermissionFlags } from "../../src/permissions/policy.js";
import type { AnyTool } from "../../src/tools/define-tool.js";
import type { AgentDirectory } from "../../src/core/tasks/agent-directory.js";
import type { SubagentLimits } from "../../src/core/tasks/subagent-host.js";
import { adviceText } from "../../src/cli/permission-advice-text.js";
import { CommandSession } from "./command-session.js";
import { startScriptedServer, type ScriptedServer } from "./scripted-server.js";
import { wireProviderFields, type Wire } from "./test-wire.js";

export interface HarnessOptions {
  mode?: AgentMode;
  interactive?: boolean;
  allowAllTools?: boolean;
  maxAutopilotContinues?: number;
  retry?: Partial<RetryPolicy>;
  server?: ScriptedServer;
  home?: string;
  cwd?: string;
  resumeId?: string;
  streamIdleTimeoutMs?: number;
  /** Permission flags as the command line would give them (allowAllTools above is a shortcut). */
  permissions?: Partial<PermissionFlags>;
  settings?: Settings;
  /** Tools beyond the built-in ones. */
  extraTools?: readonly AnyTool[];
  /** The agents the task tool can start. */
  agents?: AgentDirectory;
  subagentLimits?: SubagentLimits;
  /** --plan --autopilot: a plan nobody reviews is accepted into autopilot. */
  autoAcceptPlan?: boolean;
  /** MCP options as the command line gives them (--additional-mcp-config…). */
  mcp?: import("../../src/mcp/index.js").McpSessionOptions;
  /** Provider settings beyond the test defaults (output limit, response timeout…). */
  provider?: Partial<ProviderConfig>;
  /** Hooks for the session. */
  hooks?: HookSet;
  /** Memory for the session (on or off at the start, its settings); none when absent. */
  memory?: OpenSessionOptions["memory"];
  /** The session that started this one detached (memory's consolidation run). */
  detachedFrom?: string;
  /** The wire the agent speaks (default: AGENT_TEST_WIRE, else Chat Completions). */
  wire?: Wire;
}

export interface Harness {
  server: ScriptedServer;
  home: string;
  cwd: string;
  store: SessionStore;
  session: CommandSession;
  resume?: ResumeReport;
  events: SessionEvent[];
  types(options?: { persistedOnly?: boolean; without?: EventType[] }): string[];
  ofType<T extends EventType>(type: T): SessionEventOf<T>[];
  /** Shuts the session down; closes the server unless it was passed in; removes temp dirs it made. */
  close(): Promise<void>;
}

export { tempDir };

/** A provider on the scripted server, on AGENT_TEST_WIRE's wire unless `overrides` name one. */
export function testProviderConfig(baseUrl: string, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return {
    type: "openai",
    ...wireProviderFields(),
    baseUrl,
    apiKey: "test-key",
    model: "scripted-model",
    maxPromptTokens: 128_000,
    headers: {},
    azureApiVersion: "2024-10-21",
    timeoutMs: 30_000,
    streamIdleTimeoutMs: 30_000,
    retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5_000 },
    ...overrides,
  };
}

export function sessionPermissions(flags: PermissionFlags, settings: Settings = {}): SessionPermissions {
  const { rules, errors } = buildRules(flags, settings);
  if (errors.length > 0) throw new Error(errors.join("\n"));
  return {
    flags,
    rules,
    disabledFloorChecks: settings.permissions?.floor?.disable ?? [],
    ...(settings.mcp?.autoApproveReadOnly !== undefined ? { mcpReadOnly: settings.mcp.autoApproveReadOnly } : {}),
  };
}

/** A session's options as every face composes them, for the scripted server in `home` and `cwd`. */
export function testSessionOptions(options: HarnessOptions & { baseUrl: string; home: string; cwd: string; store: SessionStore }): OpenSessionOptions {
  const config = testProviderConfig(options.baseUrl, {
    retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5_000, ...options.retry },
    ...(options.streamIdleTimeoutMs ? { streamIdleTimeoutMs: options.streamIdleTimeoutMs } : {}),
    ...(options.wire ? { type: "openai", wireApi: "completions", ...wireProviderFields(options.wire) } : {}),
    ...options.provider,
  });
  const settings = options.settings ?? {};
  return composeSessionOptions({
    settings,
    flags: {
      cwd: options.cwd,
      ...(options.mode ? { mode: options.mode } : {}),
      customInstructions: true,
      ...(options.mcp ? { mcp: options.mcp } : {}),
      ...(options.autoAcceptPlan ? { autoAcceptPlan: true } : {}),
    },
    agentHome: options.home,
    store: options.store,
    providerConfig: config,
    permissions: sessionPermissions({ ...noPermissionFlags, allowAllTools: options.allowAllTools ?? false, ...options.permissions }, settings),
    maxAutopilotContinues: options.maxAutopilotContinues ?? 5,
    subagentLimits: options.subagentLimits ?? DEFAULT_SUBAGENT_LIMITS,
    face: {
      interactive: options.interactive ?? false,
      explainAdvice: adviceText,
      ...(options.extraTools ? { extraTools: options.extraTools } : {}),
      ...(options.agents ? { agents: options.agents } : {}),
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.memory ? { memory: options.memory } : {}),
      ...(options.detachedFrom ? { detachedFrom: options.detachedFrom } : {}),
    },
  });
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const server = options.server ?? (await startScriptedServer());
  const home = options.home ?? tempDir("agent-home-");
  const cwd = options.cwd ?? tempDir("agent-cwd-");
  const store = new SessionStore(home);
  const events: SessionEvent[] = [];
  const manager = new SessionManager(testSessionOptions({ ...options, baseUrl: server.baseUrl, home, cwd, store }));
  const opened = await manager.open({ ...(options.resumeId ? { resumeId: options.resumeId } : {}), listeners: [(event) => events.push(event)] });
  const session = new CommandSession(opened.session);
  const resume = opened.resume;
  return {
    server,
    home,
    cwd,
    store,
    session,
    resume,
    events,
    types: ({ persistedOnly = false, without = [] } = {}) =>
      events.filter((event) => !(persistedOnly && event.ephemeral) && !without.includes(event.type)).map((event) => event.type),
    ofType: <T extends EventType>(type: T) => events.filter((event): event is SessionEventOf<T> => event.type === type),
    close: async () => {
      session.shutdown();
      if (!options.server) await server.close();
      if (!options.home) rmSync(home, { recursive: true, force: true });
      if (!options.cwd) rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/** Resolves with the first event (already seen, or still to come) that matches. */
export function waitForEvent(harness: Harness, predicate: (event: SessionEvent) => boolean): Promise<SessionEvent> {
  const seen = harness.events.find(predicate);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => {
    const unsubscribe = harness.session.subscribe((event) => {
      if (predicate(event)) {
        unsubscribe();
        resolve(event);
      }
    });
  });
}

/** Answers every permission request of the session with the next reply in the list; returns the requests seen. */
export function answerPermissions(harness: Harness, ...replies: PermissionReply[]): SessionEventOf<"permission.requested">[] {
  const seen: SessionEventOf<"permission.requested">[] = [];
  harness.session.subscribe((event) => {
    if (event.type !== "permission.requested") return;
    seen.push(event);
    const reply = replies.shift();
    if (reply) queueMicrotask(() => harness.session.respondToPermission(event.data.requestId, reply));
  });
  return seen;
}
