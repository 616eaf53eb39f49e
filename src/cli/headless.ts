/**
 * `agent -p`: one prompt, no TUI, never waits for a person. A thin subscriber of the engine: it opens the
 * session, prints events, sends the prompt, and maps how the run ended to an exit code.
 */
import { adviceText } from "./permission-advice-text.js";
import type { RunResult } from "../protocol/commands.js";
import { loadEngine, planFile, SESSION_LOG_ERROR, type SessionManager, type SessionView } from "../core/index.js";
import { SessionLockedError } from "../session/session-lock.js";
import { bootstrap, homesOf } from "./bootstrap.js";
import type { CliOptions } from "./cli-options.js";
import { ExitCode } from "./exit-codes.js";
import { GuardedOutput } from "./guarded-output.js";
import { JsonPrinter, writeFailureResult } from "./json-printer.js";
import { existsSync } from "node:fs";
import type { HookSet } from "../hooks/hook-set.js";
import { anyHooksConfigured } from "./hook-files-present.js";
import { plainStyle, TextPrinter, type TextStyle } from "./text-printer.js";
import { printCommandOutput, type CommandOutput } from "./command-output.js";
import { KeptSessionWatch } from "./kept-session.js";
import { monotonicMs } from "../util/monotonic-clock.js";

/** Colours only for a terminal; chalk (and its terminal detection) is loaded only then. */
async function stderrStyle(): Promise<TextStyle> {
  if (!process.stderr.isTTY || process.env.NO_COLOR !== undefined) return plainStyle;
  const { chalkStderr } = await import("chalk");
  if (chalkStderr.level === 0) return plainStyle;
  return { dim: chalkStderr.dim, red: chalkStderr.red, green: chalkStderr.green, yellow: chalkStderr.yellow };
}

/** How long `-p` waits for background agents before cancelling them. */
const BACKGROUND_TIMEOUT_MS = Number(process.env.AGENT_BACKGROUND_TIMEOUT_MS) > 0 ? Number(process.env.AGENT_BACKGROUND_TIMEOUT_MS) : 30 * 60_000;

export function exitCodeFor(result: RunResult): number {
  switch (result.outcome) {
    case "completed":
    case "task_complete":
      return ExitCode.ok;
    case "max_continues":
      return ExitCode.autopilotLimit;
    case "aborted":
      return ExitCode.interrupted;
    case "error":
      if (result.error?.kind === SESSION_LOG_ERROR) return ExitCode.config;
      if (result.error?.kind === "usage") return ExitCode.usage;
      return result.error?.kind === "doom_loop" ? ExitCode.doomLoop : ExitCode.provider;
  }
}

/**
 * The prompt goes through the core's input router like a typed line: `-p "/plan add a cache"` switches to
 * plan mode and sends the request. Commands that only open a dialog have nothing to do without a screen.
 */
async function runInput(session: SessionView, text: string, out: CommandOutput, json: boolean): Promise<RunResult> {
  const routed = await session.dispatch({ type: "input", text });
  switch (routed.kind) {
    case "prompt":
      return routed.run;
    case "edit":
      // Nothing to edit with here: the file's path goes to stdout (`$EDITOR "$(agent -p '/memory edit')"`).
      if (json) return { outcome: "completed", finalMessage: routed.path, continuations: 0 };
      printCommandOutput({ kind: "show", title: routed.title, text: routed.path }, out);
      return { outcome: "completed", finalMessage: "", continuations: 0 };
    case "show":
    case "diff":
    case "copy":
      // JSON output keeps stdout to JSON lines: the text is the result line's answer instead.
      if (json) return { outcome: "completed", finalMessage: routed.kind === "diff" ? routed.patch : routed.text, continuations: 0 };
      printCommandOutput(routed, out);
      return { outcome: "completed", finalMessage: "", continuations: 0 };
    case "done":
      // The command already said why on stderr (its session.warning); a script sees the exit code.
      if (routed.error !== undefined) return { outcome: "error", finalMessage: "", continuations: 0, error: { kind: "usage", message: routed.error } };
      return { outcome: "completed", finalMessage: "", continuations: 0 };
    case "exit":
    case "new-session":
      return { outcome: "completed", finalMessage: "", continuations: 0 };
    case "switch-session":
      process.stderr.write(`${routed.note} Go on there with: agent --resume ${routed.sessionId}\n`);
      return { outcome: "completed", finalMessage: "", continuations: 0 };
    case "dialog":
      process.stderr.write(`agent: /${routed.dialog} needs the interactive UI (run agent without -p).\n`);
      return {
        outcome: "error",
        finalMessage: "",
        continuations: 0,
        error: { kind: "usage", message: `/${routed.dialog} needs the interactive UI (run agent without -p).` },
      };
    case "unknown-command":
      return { outcome: "error", finalMessage: "", continuations: 0, error: { kind: "usage", message: `Unknown command: /${routed.name}` } };
  }
}

export async function runHeadless(options: CliOptions & { prompt: string }): Promise<number> {
  const started = monotonicMs();
  let pipeClosed = false;
  let onPipeClosed = (): void => undefined;
  // A reader that goes away (`| head -1`) ends the run quietly: stop the turn, keep the log whole.
  const stdout = new GuardedOutput(process.stdout, () => {
    pipeClosed = true;
    onPipeClosed();
  });
  const stderr = new GuardedOutput(process.stderr);
  const json = options.outputFormat === "json" ? new JsonPrinter(stdout, { silent: options.silent }) : undefined;
  const fail = (message: string): number => {
    if (json) writeFailureResult(stdout, ExitCode.config, { kind: "config", message });
    stderr.write(`agent: ${message}\n`);
    return ExitCode.config;
  };
  const boot = await bootstrap(options);
  if (!boot.ok) return fail(boot.message);
  const { value } = boot;
  const measure = !json && process.stdout.isTTY ? (await import("string-width")).default : undefined;
  const text = json
    ? undefined
    : new TextPrinter(stdout, stderr, {
        silent: options.silent,
        style: await stderrStyle(),
        // Off a terminal, a response is printed once complete; on one it streams, and an abandoned attempt is erased.
        bufferAnswer: !process.stdout.isTTY,
        // Measuring text (string-width) is only needed to erase on a terminal: not loaded when piped.
        ...(measure ? { screen: () => ({ columns: process.stdout.columns ?? 0, rows: process.stdout.rows ?? 0, width: measure }) } : {}),
        stdoutIsTerminal: process.stdout.isTTY === true,
      });
  let hookSet: HookSet | undefined;
  if (options.hooks && anyHooksConfigured(value, options.cwd, value.settings, options.pluginDirs)) {
    const { hookConfig, untrustedNote } = await import("./session-hook-config.js");
    const hooks = hookConfig({
      ...homesOf(value),
      cwd: options.cwd,
      settings: value.settings,
      enabled: options.hooks,
      ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
    });
    // Nobody to ask: an untrusted folder's repository hooks stay off, and the person is told how to trust it.
    if (hooks.repoFiles.length > 0 && !hooks.trusted) stderr.write(`agent: ${untrustedNote(hooks, value.agentHome)}\n`);
    hookSet = hooks.load(hooks.trusted);
  }
  const kept = new KeptSessionWatch();
  const { SessionManager, composeSessionOptions } = await loadEngine();
  const manager = new SessionManager(
    composeSessionOptions({
      ...value,
      flags: options,
      memory: "prompt",
      face: { interactive: false, explainAdvice: adviceText, ...(hookSet ? { hooks: hookSet } : {}) },
    }),
  );
  let opened: Awaited<ReturnType<SessionManager["open"]>>;
  try {
    opened = await manager.open({
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(value.resumeId ? { resumeId: value.resumeId } : {}),
      // --continue only means "the latest one": held elsewhere, a new session starts instead.
      ifLocked: options.continue ? "new-session" : "fail",
      listeners: [json?.onEvent ?? (text as TextPrinter).onEvent, kept.onEvent],
      ...(hookSet ? { initialPrompt: options.prompt } : {}),
      // The interactive session that started this run as it ended (memory's consolidation): named in session.start.
      ...(process.env.AGENT_PARENT_SESSION_ID ? { detachedFrom: process.env.AGENT_PARENT_SESSION_ID } : {}),
    });
  } catch (error) {
    if (error instanceof SessionLockedError) {
      if (json) writeFailureResult(stdout, ExitCode.sessionInUse, { kind: "session_in_use", message: error.message });
      stderr.write(`agent: ${error.message}\n`);
      return ExitCode.sessionInUse;
    }
    return fail(`could not open the session: ${(error as Error).message}`);
  }
  if (opened.note) stderr.write(`agent: ${opened.note}\n`);
  const { session, resume } = opened;
  if (resume && text && !options.silent && resume.skippedLines > 0) {
    stderr.write(`agent: ${resume.skippedLines} unreadable line(s) of the session log were skipped.\n`);
  }
  if (options.agent !== undefined) {
    const problem = session.dispatch({ type: "select_agent", name: options.agent });
    if (problem) {
      void manager.close(session.id, { reason: problem });
      if (json) writeFailureResult(stdout, ExitCode.usage, { kind: "usage", message: problem });
      stderr.write(`agent: --agent: ${problem}\n`);
      return ExitCode.usage;
    }
  }
  onPipeClosed = () => session.dispatch({ type: "interrupt" });
  if (pipeClosed) session.dispatch({ type: "interrupt" });

  let signalCode: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalCode !== undefined) {
      // Quitting at once still records what is stopped (background agents cancelled) before the process ends.
      void manager.close(session.id);
      process.exit(signalCode);
    }
    signalCode = signal === "SIGTERM" ? ExitCode.terminated : ExitCode.interrupted;
    if (!options.silent && !json) stderr.write("\nInterrupting… (press Ctrl+C again to quit at once)\n");
    session.dispatch({ type: "interrupt" });
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  let result: RunResult;
  try {
    const running = runInput(session, options.prompt, { stdout, stderr, terminal: process.stdout.isTTY === true }, json !== undefined);
    // The reader may be gone already (`| true`): stop at once rather than at the first write.
    if (pipeClosed) session.dispatch({ type: "interrupt" });
    result = await running;
    // A run without a person ends when its background agents have too: the main agent gets a turn for
    // each answer; past the timeout they are cancelled.
    if (result.outcome === "completed" || result.outcome === "task_complete") {
      const followUp = await session.dispatch({ type: "settle_background", timeoutMs: BACKGROUND_TIMEOUT_MS });
      if (followUp) result = followUp;
    }
  } catch (error) {
    void manager.close(session.id, { reason: (error as Error).message });
    // A bug, not an outcome; even so, a JSON reader gets its last line.
    if (json) writeFailureResult(stdout, 1, { kind: "internal", message: (error as Error).message });
    throw error;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  // The session log could not be written: the run was stopped for it, and said so on stderr.
  const logFailure = session.logFailure;
  if (logFailure) result = { ...result, outcome: "error", error: { kind: SESSION_LOG_ERROR, message: logFailure.message } };
  await manager.close(session.id);
  // Stopped because nobody reads the output any more: a normal ending, not an interrupt.
  const exitCode = signalCode ?? (pipeClosed && result.outcome === "aborted" ? ExitCode.ok : exitCodeFor(result));
  const durationMs = monotonicMs() - started;
  // A new session in which nothing happened (`-p /usage`, `-p /x`) is not left behind.
  let discarded = resume === undefined && !kept.worthKeeping;
  try {
    if (discarded) value.store.delete(session.id);
  } catch {
    discarded = false; // left in place (a folder it may not remove): then it stays resumable like any other
  }
  // A run that never got an answer from the model (bad key, unknown model, nothing listening) is not worth resuming.
  // What this run used: the state's usage of this process (its shutdown record, now that it has ended).
  const usage = session.state.usage.current;
  const resumable = !discarded && (resume !== undefined || usage.completedCalls > 0 || result.outcome !== "error");
  // A planning run's product is its plan: say where it is.
  const plan = options.mode === "plan" && existsSync(planFile(session.dir)) ? planFile(session.dir) : undefined;
  if (json) json.finish(result, usage, session.id, exitCode, durationMs, plan);
  else text?.finish(result, usage, session.id, durationMs, resumable, plan);
  // Nothing should keep the process alive now; if something does (a stray handle), do not hang a CI job.
  setTimeout(() => process.exit(exitCode), 3000).unref();
  return exitCode;
}
