/**
 * Headless text output: the answer streams to stdout (no decoration, no ANSI unless stdout is a terminal);
 * tool traces, retries, errors and the closing stats go to stderr. With --silent, stdout gets only the
 * final answer and stderr only errors.
 *
 * Text from the model and from tools never drives the terminal: stderr traces are always neutralised (see
 * util/terminal-text.ts), the answer on stdout only when stdout is a terminal; piped, it is printed exactly
 * as the model wrote it. Our own colours are applied after neutralising.
 */
import type { RunResult } from "../core/commands.js";
import type { SessionEvent } from "../core/events/index.js";
import type { SessionMetrics } from "../core/session-metrics.js";
import { neutraliseTerminalText as safe, splitTrailingEscape } from "../util/terminal-text.js";
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
    private readonly options: { silent: boolean; style: TextStyle; /** stdout is a terminal: neutralise the answer too. */ stdoutIsTerminal?: boolean },
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

  private out(text: string): void {
    if (text === "") return;
    this.stdout.write(text);
    this.atLineStart = text.endsWith("\n");
    this.wroteAnswer = true;
  }

  private err(text: string): void {
    this.stderr.write(`${text}\n`);
  }

  private endLine(): void {
    if (!this.atLineStart) this.out("\n");
  }

  readonly onEvent = (event: SessionEvent): void => {
    if (event.agentId) return;
    const { style, silent } = this.options;
    switch (event.type) {
      case "assistant.message_delta":
        if (!silent) this.out(this.answerChunk(event.data.deltaContent));
        break;
      case "assistant.message":
        this.carry = "";
        if (!silent && event.data.content !== "") this.endLine();
        break;
      case "assistant.turn_retry":
        if (!silent) {
          this.endLine();
          this.err(style.yellow(`↻ ${safe(event.data.reason ?? "retrying")} — retry ${event.data.attempt ?? ""} in ${formatDuration(event.data.delayMs ?? 0)}`));
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
        this.endLine();
        this.err(style.red(`✗ ${safe(event.data.message)}`));
        break;
      case "session.autopilot_stopped":
        this.err(style.yellow(safe(event.data.message)));
        break;
      default:
        break;
    }
  };

  /** Prints what is left once the run ends: the summary or final answer, then the stats. */
  finish(result: RunResult, metrics: SessionMetrics, sessionId: string, durationMs: number): void {
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
    this.err(style.dim(`Resume     agent --resume ${sessionId}`));
  }
}
