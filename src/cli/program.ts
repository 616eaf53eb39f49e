/** The command line (commander): flags in Copilot CLI's names, then the headless runner or the TUI. */
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import path from "node:path";
import { statSync } from "node:fs";
import { buildRules, type PermissionFlags } from "../permissions/policy.js";
import { REASONING_EFFORTS } from "../provider/provider-config.js";
import { envAllowAllSources, UsageError, type CliOptions } from "./cli-options.js";
import { ExitCode } from "./exit-codes.js";
import { writeFailureResult } from "./json-printer.js";
import { asFleetInput } from "./fleet-input.js";
import { keepDashedPrompt, readPipedStdin, runsHeadless } from "./prompt-source.js";

declare const AGENT_VERSION: string;

function positiveInteger(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError("expected a whole number (0 or more).");
  return number;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The hidden flags are the Copilot SDK's own, passed to its CLI; they mean nothing here and are ignored. */
export function buildCommand(): Command {
  return (
    new Command("agent")
      .description("A coding agent in your terminal, for any OpenAI-compatible endpoint.")
      .version(`agent ${AGENT_VERSION}`, "-v, --version", "print the version")
      .helpOption("-h, --help", "show this help")
      .argument("[prompt]", "start the TUI with this first prompt (without a terminal, run it like -p)")
      .option("-p, --prompt [text]", "run one prompt without the TUI, then exit (piped stdin is the prompt when -p has none, else added to it)")
      .option("-i, --interactive <prompt>", "start the TUI and send this prompt at once")
      .option("-s, --silent", "print only the final answer (with -p)")
      .addOption(new Option("--output-format <format>", "text, or json: every event as a JSON line").choices(["text", "json"]).default("text"))
      .option("--autopilot", "start in autopilot mode: work until the task is done")
      .option("--fleet", "run the prompt (-p, -i, stdin, or the first one typed) as /fleet: todos run in parallel by background agents")
      .addOption(new Option("--mode <mode>", "initial mode").choices(["interactive", "plan", "autopilot"]))
      .option("--plan", "start in plan mode: write a plan for review before changing anything (with --autopilot, -p implements it)")
      .option("--no-ask-user", "do not offer the ask_user tool: the agent decides without asking")
      .option("--max-autopilot-continues <n>", "automatic continuations allowed in autopilot (default 5)", positiveInteger)
      .option("--max-turns <n>", "model calls a subagent may make per prompt before it is stopped (default 50)", positiveInteger)
      .option("--model <model>", "model to use (overrides AGENT_MODEL and settings.json); a providers.json model as <provider>/<id>")
      .addOption(new Option("--reasoning-effort <effort>", "how hard a reasoning model thinks (sent in each wire's own way)").choices(REASONING_EFFORTS))
      .option("--agent <agent>", "start with this custom agent selected (its prompt and tools; see /agent)")
      .option("-r, --resume [session]", "resume a session by id, 7+ character id prefix, or name")
      .option("--continue", "resume the most recent session in this directory")
      .option(
        "--fork [point]",
        "with --resume or --continue: go on in a copy of the session (up to before point <n> as /rewind numbers them, or event <id>; all of it by default)",
      )
      .option("-n, --name <name>", "name the new session")
      .option("--allow-all-tools", "approve every tool call without asking (deny rules and safety checks still apply)")
      .option("--allow-all-paths", "let tools touch paths outside the working directory without asking")
      .option("--allow-all-urls", "let tools reach any URL without asking")
      .option("--yolo", "all three of the above")
      .option("--allow-all", "same as --yolo")
      .option("--allow-tool <rules...>", "approve matching tool calls, e.g. 'shell(git:*)' write 'shell(npm test)' (repeatable)")
      .option("--deny-tool <rules...>", "refuse matching tool calls, even with --allow-all-tools, e.g. 'shell(rm)' (repeatable)")
      .option("--allow-url <urls...>", "approve URLs, e.g. https://*.github.com (repeatable)")
      .option("--deny-url <urls...>", "refuse URLs (repeatable)")
      .option("--add-dir <dir...>", "allow tools in this directory too (repeatable)")
      .option("--disallow-temp-dir", "do not allow the system temp directory without asking")
      .option("--available-tools [tools...]", "offer only these tools to the model (none when given no names); MCP tools as server-tool or server/*")
      .option("--excluded-tools [tools...]", "hide these tools from the model, e.g. task or an MCP tool (server-tool, server/tool, server/*)")
      .option("--no-custom-instructions", "do not load AGENTS.md and other instruction files")
      .option("--no-hooks", "run no hooks (user, repository or settings)")
      .option("--additional-mcp-config <json|@file>", "add MCP servers for this session, as JSON or @file (repeatable)", collect, [])
      .option("--disable-mcp-server <name>", "do not start this MCP server (repeatable)", collect, [])
      .option("--secret-env-vars <vars...>", "keep these environment variables out of MCP servers' environments")
      .option("--allow-all-mcp-server-instructions", "include every MCP server's instructions in the system prompt")
      .option("--plugin-dir <dir>", "load the plugin in this folder for this run (repeatable)", collect, [])
      .option("--enable-memory", "turn memory on for this run (off in -p otherwise): the context board and the memory tools")
      .option("-C <dir>", "change to this directory first")
      .option("--acp", "serve the Agent Client Protocol on stdio, for an editor (Zed and others)")
      .option("--reset-allowed-tools", 'forget the approvals remembered ("always in this directory") for the working directory, then exit')
      .option("--headless", "serve the Copilot SDK's JSON-RPC protocol instead of a TUI: on stdio with --stdio, else on TCP")
      .option("--stdio", "with --headless: speak JSON-RPC on stdin/stdout")
      .option("--port <n>", "with --headless: listen for JSON-RPC clients on this TCP port of 127.0.0.1 (default: a free port)", positiveInteger)
      .addOption(new Option("--server").hideHelp())
      .addOption(new Option("--no-auto-update").hideHelp())
      .addOption(new Option("--no-auto-login").hideHelp())
      .addOption(new Option("--remote").hideHelp())
      .addOption(new Option("--log-level <level>").hideHelp())
      .addOption(new Option("--auth-token-env <variable>").hideHelp())
      .addOption(new Option("--session-idle-timeout <seconds>").hideHelp())
      // More than one argument gets our own message (put the prompt in quotes), not commander's.
      .allowExcessArguments()
      .showHelpAfterError("(run agent --help for usage)")
      .exitOverride()
      .configureOutput({ writeErr: (text) => process.stderr.write(text), writeOut: (text) => process.stdout.write(text) })
  );
}

interface RawOptions {
  /** `true`: -p given without a prompt (it comes from stdin). */
  prompt?: string | true;
  interactive?: string;
  silent?: boolean;
  outputFormat: "text" | "json";
  autopilot?: boolean;
  fleet?: boolean;
  mode?: "interactive" | "plan" | "autopilot";
  plan?: boolean;
  askUser: boolean;
  maxAutopilotContinues?: number;
  maxTurns?: number;
  model?: string;
  reasoningEffort?: string;
  agent?: string;
  resume?: string | true;
  continue?: boolean;
  fork?: string | true;
  name?: string;
  allowAllTools?: boolean;
  allowAllPaths?: boolean;
  allowAllUrls?: boolean;
  yolo?: boolean;
  allowAll?: boolean;
  allowTool?: string[];
  denyTool?: string[];
  allowUrl?: string[];
  denyUrl?: string[];
  addDir?: string[];
  disallowTempDir?: boolean;
  /** `true` when given without names. */
  availableTools?: string[] | true;
  excludedTools?: string[] | true;
  customInstructions: boolean;
  hooks: boolean;
  additionalMcpConfig: string[];
  disableMcpServer: string[];
  secretEnvVars?: string[];
  allowAllMcpServerInstructions?: boolean;
  pluginDir: string[];
  enableMemory?: boolean;
  C?: string;
  resetAllowedTools?: boolean;
  acp?: boolean;
  headless?: boolean;
  server?: boolean;
  stdio?: boolean;
  port?: number;
}

/** The SDK puts its caller's arguments first: in server mode, flags this agent does not know are ignored. */
const isServerMode = (args: readonly string[]) => args.includes("--headless") || args.includes("--server");

export function parseCommandLine(args: readonly string[]): CliOptions {
  const command = buildCommand();
  const serving = isServerMode(args);
  if (serving) command.allowUnknownOption();
  command.parse(keepDashedPrompt(args, command), { from: "user" });
  const raw = command.opts<RawOptions>();
  const positional = serving ? [] : command.args;
  if (positional.length > 1) throw new UsageError(`unexpected argument "${positional[1]}" (put the whole prompt in quotes)`);
  if (positional.length > 0 && (raw.prompt !== undefined || raw.interactive !== undefined)) {
    throw new UsageError(`unexpected argument "${positional[0]}" (the prompt goes after ${raw.prompt !== undefined ? "-p" : "-i"}, in quotes)`);
  }
  if (raw.prompt !== undefined && raw.interactive !== undefined) throw new UsageError("use either -p (run and exit) or -i (the TUI), not both");
  // Copilot's spelling `--plan --mode autopilot` is `--plan --autopilot`; only --mode interactive conflicts.
  const plans = raw.plan === true || raw.mode === "plan";
  const autopilot = raw.autopilot === true || raw.mode === "autopilot";
  if (raw.mode === "interactive" && (raw.plan || raw.autopilot))
    throw new UsageError(`${raw.plan ? "--plan" : "--autopilot"} conflicts with --mode interactive`);
  if (raw.resume !== undefined && raw.continue) throw new UsageError("use either --resume or --continue, not both");
  if (raw.fork !== undefined && typeof raw.resume !== "string" && !raw.continue)
    throw new UsageError("--fork needs the session to fork: --resume <id> --fork, or --continue --fork");
  if (raw.stdio && raw.port !== undefined) throw new UsageError("--stdio cannot be combined with --port");
  // The editor sends the prompts and picks the sessions: these would be ignored without a word.
  const notWithAcp = [
    raw.prompt !== undefined && "-p",
    raw.interactive !== undefined && "-i",
    positional.length > 0 && "a prompt",
    raw.fleet && "--fleet",
    raw.resume !== undefined && "--resume",
    raw.continue && "--continue",
    raw.fork !== undefined && "--fork",
  ].filter(Boolean);
  if (raw.acp && notWithAcp.length > 0) throw new UsageError(`--acp takes its prompts and sessions from the editor: drop ${notWithAcp.join(", ")}`);
  let cwd = process.cwd();
  if (raw.C !== undefined) {
    cwd = existingDir(path.resolve(raw.C), `-C ${raw.C}`);
    process.chdir(cwd);
  }
  return {
    ...(typeof raw.prompt === "string" ? { prompt: raw.prompt } : {}),
    ...(raw.prompt === true ? { promptFromStdin: true } : {}),
    ...(raw.interactive !== undefined ? { firstPrompt: { text: raw.interactive, interactive: true } } : {}),
    ...(positional[0] !== undefined ? { firstPrompt: { text: positional[0], interactive: false } } : {}),
    silent: raw.silent === true,
    outputFormat: raw.outputFormat,
    // --plan --autopilot: plan first, then (with nobody to review it) accept the plan into autopilot.
    mode: plans ? "plan" : autopilot ? "autopilot" : raw.mode,
    ...(plans && autopilot ? { autoAcceptPlan: true } : {}),
    ...(raw.fleet ? { fleet: true } : {}),
    maxAutopilotContinues: raw.maxAutopilotContinues,
    ...(raw.maxTurns !== undefined ? { maxTurns: raw.maxTurns } : {}),
    model: raw.model,
    ...(raw.reasoningEffort !== undefined ? { reasoningEffort: raw.reasoningEffort } : {}),
    ...(raw.agent !== undefined ? { agent: raw.agent } : {}),
    resume: raw.resume,
    continue: raw.continue === true,
    ...(raw.fork !== undefined ? { fork: raw.fork } : {}),
    name: raw.name,
    permissions: permissionFlags(raw, cwd),
    customInstructions: raw.customInstructions,
    hooks: raw.hooks,
    mcp: {
      additional: raw.additionalMcpConfig,
      disabled: raw.disableMcpServer,
      secretEnvVars: (raw.secretEnvVars ?? [])
        .flatMap((value) => value.split(","))
        .map((name) => name.trim())
        .filter(Boolean),
      allowAllInstructions: raw.allowAllMcpServerInstructions === true,
    },
    ...(raw.pluginDir.length > 0 ? { pluginDirs: raw.pluginDir.map((dir) => existingDir(path.resolve(cwd, dir), `--plugin-dir ${dir}`)) } : {}),
    cwd,
    ...(raw.resetAllowedTools ? { resetAllowedTools: true } : {}),
    ...(raw.acp ? { acp: true } : {}),
    ...(raw.enableMemory ? { enableMemory: true } : {}),
    ...(raw.headless || raw.server ? { server: raw.port !== undefined ? { port: raw.port } : {} } : {}),
  };
}

/** A directory a flag names, or a usage error saying which flag named what is not one. */
function existingDir(dir: string, flag: string): string {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`${flag}: no such directory`);
  return dir;
}

/** `--available-tools a,b c` → [a, b, c]; given without names (`--available-tools=` too) → [] (no tools). Unknown names are warned about in runProgram. */
function toolList(values: string[] | true | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  if (values === true) return [];
  return values
    .flatMap((value) => value.split(","))
    .map((name) => name.trim())
    .filter(Boolean);
}

function permissionFlags(raw: RawOptions, cwd: string): PermissionFlags {
  const everything = [...(raw.yolo ? ["--yolo"] : []), ...(raw.allowAll ? ["--allow-all"] : [])];
  const sources = {
    tools: [...everything, ...(raw.allowAllTools ? ["--allow-all-tools"] : []), ...envAllowAllSources(process.env)],
    paths: [...everything, ...(raw.allowAllPaths ? ["--allow-all-paths"] : [])],
    urls: [...everything, ...(raw.allowAllUrls ? ["--allow-all-urls"] : [])],
  };
  const addDir = (raw.addDir ?? []).map((dir) => existingDir(path.resolve(cwd, dir), `--add-dir ${dir}`));
  const flags: PermissionFlags = {
    allowTool: raw.allowTool ?? [],
    denyTool: raw.denyTool ?? [],
    allowUrl: raw.allowUrl ?? [],
    denyUrl: raw.denyUrl ?? [],
    allowAllTools: sources.tools.length > 0,
    allowAllPaths: sources.paths.length > 0,
    allowAllUrls: sources.urls.length > 0,
    allowAllSources: sources,
    addDir,
    disallowTempDir: raw.disallowTempDir === true,
    availableTools: toolList(raw.availableTools),
    excludedTools: raw.askUser ? toolList(raw.excludedTools) : [...(toolList(raw.excludedTools) ?? []), "ask_user"],
  };
  const { errors } = buildRules(flags, {});
  if (errors.length > 0) throw new UsageError(errors.join("\n"));
  return flags;
}

/** Whether the command line asks for JSON output, read before (or without) a successful parse. */
function wantsJson(args: readonly string[]): boolean {
  return args.some((arg, index) => arg === "--output-format=json" || (arg === "--output-format" && args[index + 1] === "json"));
}

function usageFailure(args: readonly string[], message: string): void {
  if (wantsJson(args)) writeFailureResult(process.stdout, ExitCode.usage, { kind: "usage", message });
  process.exitCode = ExitCode.usage;
}

/**
 * The SDK server's engine (the command line, settings, the SessionHost and all under it), for server-mode.ts to reach
 * through this program's script (dist/chunks/program.cjs), whose compiled code V8 caches: the server's front stays ES
 * modules and answers the handshake first, then loads this (docs/benchmarks.md).
 */
export function loadServerEngine(): Promise<typeof import("./server-engine.js")> {
  return import("./server-engine.js");
}

export async function runProgram(args: readonly string[]): Promise<void> {
  if (args[0] === "mcp") {
    const { runMcpCommand } = await import("./mcp-command.js");
    process.exitCode = await runMcpCommand(args.slice(1));
    return;
  }
  if (args[0] === "plugin") {
    const { runPluginCommand } = await import("./plugin-command.js");
    process.exitCode = await runPluginCommand(args.slice(1));
    return;
  }
  if (args[0] === "replay") {
    const { runReplayCommand } = await import("./replay-command.js");
    process.exitCode = await runReplayCommand(args.slice(1));
    return;
  }
  if (args[0] === "memory") {
    const { runMemoryCommand } = await import("./memory-command.js");
    process.exitCode = await runMemoryCommand(args.slice(1));
    return;
  }
  let options: CliOptions;
  try {
    options = parseCommandLine(args);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here too, successfully.
      if (error.exitCode === 0) process.exitCode = ExitCode.ok;
      else usageFailure(args, error.message);
      return;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`agent: ${error.message}\n(run agent --help for usage)\n`);
      usageFailure(args, error.message);
      return;
    }
    throw error;
  }
  if (options.resetAllowedTools) {
    const { runResetAllowedTools } = await import("./reset-allowed-tools.js");
    process.exitCode = runResetAllowedTools(options.cwd);
    return;
  }
  if (options.agent !== undefined) {
    // Checked before anything starts, so a mistyped name is a usage error rather than a half-open session.
    const { checkAgentName } = await import("./check-agent-name.js");
    const problem = checkAgentName(options.agent, options.cwd);
    if (problem) {
      process.stderr.write(`agent: --agent: ${problem}\n(run agent --help for usage)\n`);
      usageFailure(args, problem);
      return;
    }
  }
  if (options.mcp?.additional?.length || options.mcp?.disabled?.length) {
    const { checkMcpFlags } = await import("./check-mcp-flags.js");
    const checked = checkMcpFlags(options.mcp, options.cwd);
    if (checked.error) {
      process.stderr.write(`agent: ${checked.error}\n(run agent --help for usage)\n`);
      usageFailure(args, checked.error);
      return;
    }
    for (const warning of checked.warnings) process.stderr.write(`agent: warning: ${warning}\n`);
  }
  if (options.permissions.availableTools?.length || options.permissions.excludedTools?.length) {
    const { toolFlagWarnings } = await import("./check-tool-flags.js");
    for (const warning of toolFlagWarnings(options.permissions, options.mcp, options.cwd)) process.stderr.write(`agent: warning: ${warning}\n`);
  }
  if (options.fork !== undefined) {
    const { applyForkFlag } = await import("./fork-flag.js");
    const forked = await applyForkFlag(options);
    if ("error" in forked) {
      process.stderr.write(`agent: ${forked.error}\n`);
      usageFailure(args, forked.error);
      return;
    }
    process.stderr.write(`${forked.note}\n`);
    options = forked.options;
  }
  if (options.acp) {
    const { runAcp } = await import("./acp-command.js");
    process.exitCode = await runAcp(options);
    return;
  }
  if (options.server) {
    const { runServer } = await import("./server-mode.js");
    process.exitCode = await runServer(args);
    return;
  }
  const headless = runsHeadless(options);
  if (headless) {
    const given = options.prompt ?? options.firstPrompt?.text;
    const piped = await readPipedStdin(given === undefined);
    const prompt = [given, piped].filter((part): part is string => part !== undefined && part.trim() !== "").join("\n\n");
    if (prompt === "") {
      const message = options.promptFromStdin
        ? '-p has no prompt and nothing was piped on stdin. Pass one with -p "…" or pipe it: echo "…" | agent -p'
        : 'no prompt. Pass one with -p "…" or pipe it on stdin.';
      process.stderr.write(`agent: ${message}\n`);
      usageFailure(args, message);
      return;
    }
    const { runHeadless } = await import("./headless.js");
    process.exitCode = await runHeadless({ ...options, prompt: options.fleet ? asFleetInput(prompt) : prompt });
    return;
  }
  const { runInteractive } = await import("./interactive.js");
  process.exitCode = await runInteractive(options);
}
