/**
 * What a slash command hands a face to show, printed by `agent -p`: the product goes to stdout (so
 * `agent -p /diff > changes.patch` works), notes to stderr. On a terminal the text is neutralised first:
 * a diff or an answer can hold escape sequences, and only our own output may drive the terminal.
 */
import type { InputResult } from "../protocol/commands.js";
import { neutraliseTerminalText } from "../util/terminal-text.js";

export interface CommandOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** stdout is a terminal. */
  terminal: boolean;
}

type Shown = Extract<InputResult, { kind: "show" | "diff" | "copy" }>;

export function printCommandOutput(result: Shown, out: CommandOutput): void {
  const text = result.kind === "diff" ? result.patch : result.text;
  const safe = out.terminal ? neutraliseTerminalText(text) : text;
  if (result.kind === "diff") out.stderr.write(`${result.summary}\n`);
  // No clipboard without the interactive terminal: the text is printed for a pipe to take (`| pbcopy`).
  if (result.kind === "copy") out.stderr.write("agent: /copy needs the interactive terminal to reach the clipboard; the last answer is printed instead.\n");
  if (safe !== "") out.stdout.write(safe.endsWith("\n") ? safe : `${safe}\n`);
}
