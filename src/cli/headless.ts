/**
 * `agent -p`: one prompt, no TUI, never waits for a person. A thin subscriber of the engine: it opens the
 * session, prints events, sends the prompt, and maps how the run ended to an exit code.
 */
import type { RunResult } from "../core/commands.js";
import { openSession } from "../core/open-session.js";
import { createOpenAIChatProvider } from "../provider/openai-chat.js";
import { bootstrap } from "./bootstrap.js";
import type { CliOptions } from "./cli-options.js";
import { ExitCode } from "./exit-codes.js";
import { JsonPrinter } from "./json-printer.js";
import { plainStyle, TextPrinter, type TextStyle } from "./text-printer.js";

/** Colours only for a terminal; chalk (and its terminal detection) is loaded only then. */
async function stderrStyle(): Promise<TextStyle> {
  if (!process.stderr.isTTY || process.env.NO_COLOR !== undefined) return plainStyle;
  const { chalkStderr } = await import("chalk");
  if (chalkStderr.level === 0) return plainStyle;
  return { dim: chalkStderr.dim, red: chalkStderr.red, green: chalkStderr.green, yellow: chalkStderr.yellow };
}

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
      return ExitCode.provider;
  }
}

export async function runHeadless(options: CliOptions & { prompt: string }): Promise<number> {
  const started = performance.now();
  const boot = await bootstrap(options);
  if (!boot.ok) {
    process.stderr.write(`agent: ${boot.message}\n`);
    return ExitCode.config;
  }
  const { value } = boot;
  const json = options.outputFormat === "json" ? new JsonPrinter(process.stdout) : undefined;
  const text = json ? undefined : new TextPrinter(process.stdout, process.stderr, { silent: options.silent, style: await stderrStyle() });
  const { session, resume } = await openSession({
    store: value.store,
    agentHome: value.agentHome,
    cwd: options.cwd,
    provider: createOpenAIChatProvider(value.providerConfig),
    createProvider: (model) => createOpenAIChatProvider({ ...value.providerConfig, model }),
    providerConfig: value.providerConfig,
    mode: options.mode,
    maxAutopilotContinues: value.maxAutopilotContinues,
    interactive: false,
    permissions: value.permissions,
    name: options.name,
    customInstructions: options.customInstructions,
    resumeId: value.resumeId,
    listeners: [json?.onEvent ?? (text as TextPrinter).onEvent],
  });
  if (resume && text && !options.silent && resume.skippedLines > 0) {
    process.stderr.write(`agent: ${resume.skippedLines} unreadable line(s) of the session log were skipped.\n`);
  }

  let signalCode: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalCode !== undefined) process.exit(signalCode);
    signalCode = signal === "SIGTERM" ? ExitCode.terminated : ExitCode.interrupted;
    if (!options.silent && !json) process.stderr.write("\nInterrupting… (press Ctrl+C again to quit at once)\n");
    session.interrupt();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  let result: RunResult;
  try {
    result = await session.send(options.prompt);
  } catch (error) {
    session.shutdown("error", (error as Error).message);
    throw error;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  session.shutdown();
  const exitCode = signalCode ?? exitCodeFor(result);
  const durationMs = performance.now() - started;
  if (json) json.finish(result, session.metrics, session.id, exitCode, durationMs);
  else text?.finish(result, session.metrics, session.id, durationMs);
  // Nothing should keep the process alive now; if something does (a stray handle), do not hang a CI job.
  setTimeout(() => process.exit(exitCode), 3000).unref();
  return exitCode;
}
