/**
 * `--fleet`: the prompt (from -p, stdin, or the first one typed in the TUI) runs as `/fleet <prompt>`. A
 * line that is already a slash command or a `!cmd` is left as it is.
 */
export function asFleetInput(text: string): string {
  const trimmed = text.trimStart();
  return trimmed === "" || trimmed.startsWith("/") || trimmed.startsWith("!") ? text : `/fleet ${trimmed}`;
}
