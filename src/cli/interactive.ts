/** The interactive TUI is built in the next issue; until then `agent` without -p says how to use it. */
import type { CliOptions } from "./cli-options.js";
import { ExitCode } from "./exit-codes.js";

export async function runInteractive(_options: CliOptions): Promise<number> {
  process.stderr.write('agent: the interactive terminal UI is not available in this version yet. Run a prompt with: agent -p "…"\n');
  return ExitCode.usage;
}
