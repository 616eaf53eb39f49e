/**
 * Headless text output: the answer streams to stdout (no decoration, no ANSI unless stdout is a terminal);
 * tool traces, retries, errors and the closing stats go to stderr. With --silent, stdout gets only the
 * final answer and stderr only errors. When stdout is not a terminal, each response is held until it is
 * complete (`bufferAnswer`), so an attempt cut off and retried never leaves its partial text in the output.
 *
 * Text from the model and from tools never drives the terminal: stderr traces are always neutralised (see
 * util/terminal-text.ts), the answer on stdout only when stdout is a terminal; piped, it is printed exactly
 * as the model wrote it. Our own colours are applied after neutralising.
 */
import type { RunResult } from "../protocol/commands.js";
import type { SessionEvent } from "../protocol/events/index.js";
import { compactionLine } from "../core/compaction/compaction-line.js";
import { rewindEventText } from "../core/rewind/rewind-text.js";
import type { SessionMetrics } from "../core/session-metrics.js";
import { neutraliseTerminalText as safe, splitTrailingEscape } from "../util/terminal-text.js";
import { CommandReportWatch } from "./command-report.js";
import { StreamedAttempt } from "./streamed-attempt.js";
import { describeToolCall, firstLine, formatDuration, formatTokens } from "./format.js";

export interface TextStyle {
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

export const plainStyle: TextStyle = { dim: (t) => t, red: (t) => t, green: (t) => t, yellow: (t) => t };

export interface Output {
  write(text: string): unknown;
}

export class TextPrinter {
  private atLineStart = true;
  private wroteAnswer = false;
  private readonly titles = new Map<string, string>();

  constructor(
    private readonly stdout: Output,
    private readonly stderr: Output,
    private readonly options: {
      silent: boolean;
      style: TextStyle;
      bufferAnswer?: boolean;
      /** The terminal's size, when stdout is one: an abandoned attempt's text is erased from it. */
      screen?: () => { columns: number; rows: number; width(text: string): number };
      /** stdout is a terminal: neutralise the answer too. */
      stdoutIsTerminal?: boolean;
    },
  ) {}

  /** The start of an escape sequence cut off at the end of the last streamed chunk (terminal only). */
  private carry = "";

  /** Answer text for stdout: as written when piped, neutralised on a terminal. */
  private answer(text: string): string {
    return this.options.stdoutIsTerminal ? safe(text) : text;
  }

  /** A streamed chunk of the answer: on a terminal, a sequence split between chunks is neutralised whole. */
  private answerChunk(text: string): string {
    if (!this.options.stdoutIsTerminal) return text;
    const [complete, carry] = splitTrailingEscape(this.carry + text);
    this.carry = carry;
    return safe(complete);
  }

  private readonly attempt = new StreamedAttempt();
  private readonly reports = new CommandReportWatch();

  private out(text: string): void {
    if (text === "") return;
    this.stdout.write(text);
    this.atLineStart = text.endsWith("\n");
    this.wroteAnswer = true;
  }

  private err(text: string): void {
    this.stderr.write(`${text}\n`);
  }

  /** On a terminal, takes back what an abandoned attempt streamed (when it can be done exactly). */
  private eraseAttempt(messageId: string | undefined): void {
    const erase = this.options.screen ? this.attempt.erase(messageId, this.options.screen()) : undefined;
    this.attempt.reset();
    if (erase === undefined) return;
    this.stdout.write(erase);
    this.atLineStart = true;
  }

  private endLine(): void {
    if (!this.atLineStart) this.out("\n");
  }

  readonly onEvent = (event: SessionEvent): void => {
    if (event.agentId) return;
    const { style, silent } = this.options;
    // What a slash command reports is what `agent -p "/usage"` was run for: stdout, even with --silent.
    const report = this.reports.reportOf(event);
    if (report !== undefined) {
      this.endLine();
      this.out(`${this.answer(report)}\n`);
      return;
    }
    switch (event.type) {
      case "assistant.message_delta":
        if (silent || this.options.bufferAnswer) break;
        {
          const chunk = this.answerChunk(event.data.deltaContent);
          this.attempt.wrote(event.data.messageId, chunk, this.atLineStart);
          this.out(chunk);
        }
        break;
      case "assistant.message":
        this.attempt.reset();
        this.carry = "";
        if (!silent && this.options.bufferAnswer) this.out(this.answer(event.data.content));
        // An answer cut by the output limit goes on in the next message: one answer, no line break between.
        if (!silent && event.data.content !== "" && event.data.finishReason !== "length") this.endLine();
        break;
      case "assistant.turn_retry":
        if (!silent) {
          this.eraseAttempt(event.data.abandonedMessageId);
          this.endLine();
          this.err(
            style.yellow(`↻ ${safe(event.data.reason ?? "retrying")} — retry ${event.data.attempt ?? ""} in ${formatDuration(event.data.delayMs ?? 0)}`),
          );
        }
        break;
      case "tool.execution_start": {
        const title = event.data.toolTitle ?? describeToolCall(event.data.toolName, event.data.arguments);
        this.titles.set(event.data.toolCallId, title);
        if (!silent) this.err(style.dim(`● ${safe(title)}`));
        break;
      }
      case "tool.execution_complete":
        if (silent) break;
        if (event.data.success) this.err(style.dim(`  └ ${firstLine(safe(event.data.result?.content ?? ""), 100) || "done"}`));
        else this.err(style.red(`  ✗ ${firstLine(safe(event.data.error?.message ?? "failed"), 400)}`));
        break;
      case "session.error":
        // The attempt that failed for good is not an answer either.
        if (!silent) this.eraseAttempt(this.attempt.current);
        this.endLine();
        this.err(style.red(`✗ ${safe(event.data.message)}`));
        break;
      case "session.autopilot_stopped":
        this.err(style.yellow(safe(event.data.message)));
        break;
      case "session.warning":
        this.endLine();
        this.err(style.yellow(`! ${safe(event.data.message)}`));
        break;
      case "session.info":
        if (!silent) this.err(style.dim(safe(event.data.message)));
        break;
      case "session.snapshot_rewind":
        if (!silent) this.err(style.dim(safe(rewindEventText(event.data, process.cwd()))));
        break;
      case "session.compaction_start":
        if (!silent) this.err(style.dim("● Compacting the conversation…"));
        break;
      case "session.compaction_complete":
        if (event.data.success && !silent) this.err(style.dim(`  └ ${safe(compactionLine(event.data))}`));
        if (!event.data.success) this.err(style.yellow(`! ${safe(compactionLine(event.data))}`));
        break;
      default:
        break;
    }
  };

  /** Prints what is left once the run ends: the summary or final answer, then the stats. */
  /** `resumable`: false when the run never got an answer from the model (401, unknown model…): no resume hint. */
  /** `planPath`: the plan a planning run wrote (--plan). */
  finish(result: RunResult, metrics: SessionMetrics, sessionId: string, durationMs: number, resumable = true, planPath?: string): void {
    const { silent, style } = this.options;
    if (silent) {
      const answer = this.answer(result.summary ?? result.finalMessage);
      if (answer !== "") this.out(answer.endsWith("\n") ? answer : `${answer}\n`);
      return;
    }
    if (result.summary !== undefined) {
      this.endLine();
      if (this.wroteAnswer) this.out("\n");
      this.out(`${this.answer(result.summary)}\n`);
    }
    this.endLine();
    const { codeChanges } = metrics;
    const tokens = metrics.tokens;
    const files = codeChanges.filesModified.length;
    this.err("");
    this.err(style.dim(`Changes    +${codeChanges.linesAdded} -${codeChanges.linesRemoved}${files > 0 ? ` (${files} file${files === 1 ? "" : "s"})` : ""}`));
    this.err(style.dim(`Requests   ${metrics.requests} (API ${formatDuration(metrics.totalApiDurationMs)})`));
    this.err(style.dim(`Duration   ${formatDuration(durationMs)}`));
    this.err(style.dim(`Tokens     ↑ ${formatTokens(tokens.inputTokens)} • ↓ ${formatTokens(tokens.outputTokens)}`));
    if (planPath) this.err(style.dim(`Plan       ${planPath}`));
    if (resumable) this.err(style.dim(`Resume     agent --resume ${sessionId}`));
  }
}
