/**
 * `agent replay <session> [--dry]`: re-runs a recorded session without a model and reports the first
 * request that differs from the recorded one (core/replay/). The replay's own session lives in a temporary
 * folder with the scratch copy of the working tree; settings, instructions and agents are the user's, as
 * for the recorded run. MCP servers are not started (their recorded results stand in), hooks do not run.
 * Exit code 0: no divergence; 1: a divergence; 2: bad usage or nothing to replay.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { Command, CommanderError } from "commander";
import { resolveHomes } from "../config/agent-home.js";
import { resolveProviderConfig } from "../config/provider-config.js";
import { loadSettings, settingsPath } from "../config/settings.js";
import { composeSessionOptions } from "../core/compose-session.js";
import { SessionManager } from "../core/session-manager.js";
import { DEFAULT_SUBAGENT_LIMITS } from "../core/tasks/session-subagents.js";
import { replayScript } from "../core/replay/replay-script.js";
import { replaySession, type ReplayHost, type ReplayReport } from "../core/replay/replay-session.js";
import { scratchTree } from "../core/replay/scratch-tree.js";
import { standInTool } from "../core/replay/tool-stand-in.js";
import { loadMcpConfig } from "../mcp/mcp-config.js";
import { noPermissionFlags } from "../permissions/policy.js";
import { createOpenAIChatProvider } from "../provider/openai-chat.js";
import { readEventLog } from "../session/event-log-reader.js";
import { SessionStore } from "../session/session-store.js";
import { ExitCode } from "./exit-codes.js";

/** The exit code of a replay that found a divergence (as `diff` does). */
const DIVERGED = 1;

function parse(args: readonly string[]): { session: string; dry: boolean; keep: boolean } {
  const command = new Command("agent replay")
    .description("Re-run a recorded session without a model and report the first request that differs from the recording.")
    .argument("<session>", "the session: id, 7+ character id prefix, or name")
    .option("--dry", "do not run tools again: use their recorded results, and only compare the requests")
    .option("--keep", "keep the scratch copy and the replay's session folder (their path is printed)")
    .helpOption("-h, --help", "show this help")
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text), writeOut: (text) => process.stdout.write(text) });
  command.parse(args, { from: "user" });
  const options = command.opts<{ dry?: boolean; keep?: boolean }>();
  return { session: command.args[0] as string, dry: options.dry === true, keep: options.keep === true };
}

function describe(report: ReplayReport, dry: boolean): string {
  if (report.divergence) {
    const { divergence } = report;
    return [
      `✗ First divergence at request ${divergence.request} (${divergence.agent}, answering prompt ${divergence.promptNumber}): message ${divergence.index}, ${divergence.what}.`,
      `  recorded: ${divergence.expected}`,
      `  now:      ${divergence.actual}`,
    ].join("\n");
  }
  if (report.problem) return `✗ Divergence: ${report.problem}`;
  return `✓ No divergence: ${report.requests} request${report.requests === 1 ? "" : "s"} matched the recording${dry ? " (tools not run: --dry)" : ""}.`;
}

export async function runReplayCommand(args: readonly string[]): Promise<number> {
  let given: ReturnType<typeof parse>;
  try {
    given = parse(args);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    throw error;
  }
  const fail = (message: string) => {
    process.stderr.write(`agent replay: ${message}\n`);
    return ExitCode.usage;
  };
  const { agentHome, copilotHome } = resolveHomes();
  const settings = await loadSettings(agentHome);
  const store = new SessionStore(agentHome);
  const found = await store.resolve(given.session);
  if (!found.ok) return fail(found.message);
  const events = readEventLog(store.eventsFileOf(found.id)).events;
  const script = replayScript(events);
  if (script.calls.length === 0) return fail(`session ${found.id} made no model call: there is nothing to replay.`);
  let tree: ReturnType<typeof scratchTree>;
  try {
    tree = scratchTree(script.cwd, store.dirOf(found.id), events);
  } catch (error) {
    return fail((error as Error).message);
  }
  process.stderr.write(
    `Replaying session ${found.id} (${script.steps.filter((step) => step.kind === "prompt").length} prompts, ${script.calls.length} model calls)${given.dry ? ", tools not run" : ` in a scratch copy of ${script.cwd}`}…\n`,
  );
  for (const note of tree.notes) process.stderr.write(`  note: ${note}\n`);
  const replayStore = new SessionStore(path.join(tree.root, "home"));
  const mcpServers = loadMcpConfig({ agentHome, ...(copilotHome ? { copilotHome } : {}), cwd: tree.cwd }).servers.map((server) => server.name);
  const host: ReplayHost = {
    open: async (setup) => {
      const env = { ...process.env, OPENAI_BASE_URL: setup.baseUrl, OPENAI_API_KEY: "replay" };
      const resolved = resolveProviderConfig({ flags: { model: setup.model || "replay" }, env, settings, settingsFile: settingsPath(agentHome) });
      if (!resolved.ok) throw new Error(resolved.message);
      // The replay's endpoint speaks Chat Completions whatever wire the session used (the log is the same on every wire).
      const { credential: _credential, wireModel: _wireModel, ...config } = resolved.config;
      const providerConfig = {
        ...config,
        type: "openai" as const,
        wireApi: "completions" as const,
        apiKey: "replay",
        retry: { ...config.retry, maxRetries: 0 },
      };
      const manager = new SessionManager(
        composeSessionOptions({
          settings,
          flags: { cwd: tree.cwd, mode: setup.mode, customInstructions: true, mcp: { disabled: mcpServers } },
          agentHome,
          ...(copilotHome ? { copilotHome } : {}),
          store: replayStore,
          providerConfig,
          makeProvider: createOpenAIChatProvider,
          permissions: {
            flags: { ...noPermissionFlags, allowAllTools: true, allowAllPaths: true, allowAllUrls: true },
            rules: [],
            disabledFloorChecks: [],
          },
          maxAutopilotContinues: settings.maxAutopilotContinues ?? 5,
          subagentLimits: DEFAULT_SUBAGENT_LIMITS,
          face: { interactive: false, toolStandIn: setup.toolStandIn, extraTools: setup.standInTools.map(standInTool) },
        }),
      );
      return (await manager.open()).session;
    },
    paths: (session) => [
      [tree.cwd, script.cwd],
      [session.dir, store.dirOf(found.id)],
    ],
  };
  let report: ReplayReport;
  try {
    report = await replaySession(script, host, { dry: given.dry });
  } finally {
    if (given.keep) process.stderr.write(`Kept the scratch copy and the replay's session in ${tree.root}\n`);
    else rmSync(tree.root, { recursive: true, force: true });
  }
  process.stdout.write(`${describe(report, given.dry)}\n`);
  return report.divergence || report.problem ? DIVERGED : ExitCode.ok;
}
