/**
 * The core's one public entry: what the faces (src/ui, src/cli, src/server, src/acp) may use of the engine.
 * A face holds a session as a SessionView (commands in through dispatch, events out through subscribe, the
 * state as a readonly snapshot), opens sessions through the manager or the open helpers, and reads the few
 * shared pieces below. The architecture test keeps faces off every other core module.
 *
 * The engine itself (the manager, openSession) loads on demand: `loadEngine()` imports it, so a face that
 * draws before the engine is loaded (the TUI's first frame) or never needs it (`--version`) does not pay for it.
 */
export type { SessionView } from "./session-view.js";
export type {
  AgentState,
  AgentStatus,
  EarlierUsage,
  McpServerState,
  McpServerStatus,
  ModelMetric,
  PermissionState,
  ProcessUsage,
  QueuedPrompt,
  QueueState,
  SelectedAgentState,
  SessionState,
  ShellState,
  UsageState,
} from "./state/session-state.js";
export { totalTokens } from "./state/usage-state.js";
export { taskAgents } from "./state/agents-state.js";
export type { OpenedSession, OpenSessionOptions, ResumeReport, SessionPermissions } from "./open-session.js";
export type { OpenRequest, SessionManager } from "./session-manager.js";
// Light: the manager opens sessions through a dynamic import of the engine.
export { openableSession, TURN_END_GRACE_MS } from "./session-manager.js";
export type { CommandBackend, CommandRequest, CommandResult, FileBackend, ToolBackends } from "./session-services.js";
export type { SubagentLimits } from "./tasks/subagent-host.js";
export type { SkillSettings } from "./skills/session-extensions.js";
export type { AgentDefinition } from "./agents/agent-catalog.js";
export type { FlagSuggestion, PermissionAdvice } from "./permission-advice.js";
export type { InstructionFile } from "./custom-instructions.js";
export { loadInstructionDirectories } from "./custom-instructions.js";
export type { SystemPromptPartEdit, SystemPromptPartTexts, SystemPromptShape } from "./system-prompt-shape.js";
export type { SystemPromptPartName } from "./system-prompt.js";
export type { SlashCommand } from "./slash-commands/types.js";
export type { ClientToolDeclaration } from "./client-tools.js";

export { DEFAULT_SUBAGENT_LIMITS } from "./tasks/limits.js";
export { BACKGROUND_AGENTS_STOPPED } from "./tasks/background-notice.js";
export { describeAgent } from "./tasks/agent-transcripts.js";
export { compactionLine } from "./compaction/compaction-line.js";
export { describePoint, rewindEventText, SCOPE_LABELS, shownPath } from "./rewind/rewind-text.js";
export { forkSession } from "./session-admin/fork-session.js";
export { checkpointText, checkpointTitle, listCheckpoints } from "./session-admin/session-report.js";
export { workspaceDiff } from "./session-admin/workspace-diff.js";
export type { ReplayHost, ReplayReport } from "./replay/replay-session.js";
export { MODE_CYCLE, planFile } from "./modes.js";
export { permissionModeLabel } from "./permission-summary.js";
export { selectableAgent, unknownAgentMessage } from "./agents/unknown-agent.js";
export { RemoteQuestions, type QuestionClient, type RemoteQuestion } from "./remote-questions.js";
export { SESSION_LOG_ERROR } from "./session-log-failure.js";
export { handoffSummary } from "./handoff-summary.js";
export { readPlan } from "./plan/plan-document.js";
// The skills, agents and instruction files of the user and of project folders, for no session (the SDK's *.discover).
export * as discovery from "./discovery/discover-sources.js";

/** The engine: the session manager, openSession and what wires a session together. */
export function loadEngine(): Promise<typeof import("./engine.js")> {
  return import("./engine.js");
}

/** Every slash command (the TUI's completion and /help, ACP's command list); loaded on demand. */
export function loadSlashCommands(): Promise<typeof import("./slash-commands/registry.js")> {
  return import("./slash-commands/registry.js");
}
// Installed plugins and marketplaces, for the faces that manage them (the SDK's plugins.* methods).
export { installPlugin, removePlugin, setPluginEnabled, updatePlugin, type InstallResult } from "../plugins/install-plugin.js";
export { addMarketplace, findMarketplace, listMarketplaces, refreshMarketplace, removeMarketplace } from "../plugins/marketplaces.js";
export { readInstalled, type InstalledPluginRecord } from "../plugins/plugin-store.js";
