/**
 * `agent --resume <session>` and nothing else (also `-r <session>`, `--resume=<session>`): the session it names,
 * read without the command-line parser, so resuming in a terminal goes straight to the TUI as a bare `agent`
 * does (main.ts); the parser and its bundle cost ~10 ms before the resumed session's first frame. Anything
 * else, or a value the parser could read otherwise (empty, or starting with "-"), is left to the parser.
 * test/cli/resume-argument.test.ts checks that the parser reads the same session from the same arguments.
 */
export function resumeArgument(args: readonly string[]): string | undefined {
  const value =
    args.length === 2 && (args[0] === "--resume" || args[0] === "-r")
      ? args[1]
      : args.length === 1 && args[0]?.startsWith("--resume=")
        ? args[0].slice("--resume=".length)
        : undefined;
  return value !== undefined && value !== "" && !value.startsWith("-") ? value : undefined;
}
