/**
 * Where a run's prompt comes from and which face runs it: `-p` with or without a prompt, `-i`, a prompt as the
 * only argument, or a pipe on stdin.
 */
import type { Command } from "commander";
import { statSync } from "node:fs";
import { isatty } from "node:tty";
import type { CliOptions } from "./cli-options.js";

/**
 * Which face runs. `-p` (with or without a prompt) is headless; `-i` is the TUI; a prompt given as the only
 * argument starts the TUI when there is a terminal to show it in, and otherwise runs like -p (`agent "…" >
 * out.md`); with neither, the TUI, unless stdin is piped (`echo "…" | agent`).
 */
export function runsHeadless(options: Pick<CliOptions, "prompt" | "promptFromStdin" | "firstPrompt">, terminal?: { stdin: boolean; stdout: boolean }): boolean {
  if (options.prompt !== undefined || options.promptFromStdin) return true;
  if (options.firstPrompt?.interactive) return false;
  // isatty, not process.stdin.isTTY: the first read of process.stdin sets up its stream (~10 ms of start-up).
  const { stdin, stdout } = terminal ?? { stdin: isatty(0), stdout: isatty(1) };
  if (options.firstPrompt) return !stdin || !stdout;
  return !stdin;
}

/** Reads a piped prompt: only from a pipe or a file, so a terminal or an idle socket never blocks the start. */
export async function readPipedStdin(required: boolean): Promise<string | undefined> {
  // isatty(0), not process.stdin.isTTY: the stdin stream is only set up when there is something to read.
  if (isatty(0)) return undefined;
  let piped = required;
  try {
    const stats = statSync("/dev/stdin");
    piped ||= stats.isFIFO() || stats.isFile();
  } catch {
    // No stdin at all.
  }
  if (!piped) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text.trim() === "" ? undefined : text;
}

/**
 * `-p "-x is odd"`: an optional value starting with a dash would be taken for a flag. When what follows -p is
 * no flag of ours, it is the prompt.
 */
export function keepDashedPrompt(args: readonly string[], command: Command): string[] {
  const isFlag = (arg: string) => command.options.some((option) => option.short === arg || option.long === arg.split("=")[0]);
  const out: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    const next = args[index + 1];
    if ((arg === "-p" || arg === "--prompt") && next !== undefined && next.startsWith("-") && next !== "--" && !isFlag(next)) {
      out.push(`--prompt=${next}`);
      index++;
    } else out.push(arg);
  }
  return out;
}
