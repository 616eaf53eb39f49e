/**
 * `agent memory list|show|forget|export`: memory for scripts, for the repository of the working directory
 * (or -C <dir>) and the user's own. Reads and changes the same store files as /memory; needs no endpoint.
 *   agent memory list [--json]      the memories, most relevant first
 *   agent memory show               where they live, and the exact board a new session would be sent
 *   agent memory forget <id>…       removes memories
 *   agent memory export             both stores as JSONL on stdout (a backup, or to move them)
 */
import { Command, CommanderError } from "commander";
import path from "node:path";
import { statSync } from "node:fs";
import { resolveAgentHome } from "../config/agent-home.js";
import { loadSettings, SettingsError } from "../config/settings.js";
import { rankMemories } from "../memory/memory-ranking.js";
import { describeBoard, describeStores, memoryLines } from "../memory/memory-report.js";
import { memorySettings } from "../memory/memory-settings.js";
import { MemorySpace } from "../memory/memory-space.js";
import { MemoryStoreError } from "../memory/memory-store.js";

class MemoryCommandError extends Error {}

function directory(value: string | undefined): string {
  const dir = path.resolve(value ?? process.cwd());
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new MemoryCommandError(`-C ${value}: no such directory`);
  return dir;
}

export async function runMemoryCommand(args: readonly string[]): Promise<number> {
  const agentHome = resolveAgentHome();
  const out = (text: string): void => void process.stdout.write(`${text}\n`);
  const program = new Command("agent memory")
    .description("What the agent remembers across sessions ($AGENT_HOME/memory/)")
    .option("-C <dir>", "the repository (or directory) whose memories to use (default: the working directory)")
    .exitOverride()
    .helpOption("-h, --help", "show this help");
  const space = () => new MemorySpace(agentHome, directory(program.opts<{ C?: string }>().C));
  program
    .command("list")
    .description("list this repository's memories and yours, most relevant first")
    .option("--json", "print the memories as a JSON array")
    .action((options: { json?: boolean }) => {
      const records = rankMemories(space().read().records, Date.now());
      if (options.json) out(JSON.stringify(records, null, 2));
      else if (records.length === 0) out("No memories yet for this repository, nor of yours.");
      else for (const line of memoryLines(records)) out(line);
    });
  program
    .command("show")
    .description("where the memories live, and the board a new session here would be sent")
    .action(async () => {
      const memories = space();
      const settings = memorySettings((await loadSettings(agentHome)).memory);
      const board = memories.board(settings.boardTokens);
      for (const line of [...describeStores(memories), ...describeBoard(board, "The board a new session would get")]) out(line);
      if (board.text !== "") out(`\nSent to the model at the end of the system prompt (when memory is on):\n${board.text}`);
      out(`\nMemory is ${settings.enabled === true ? "on" : "off"} in settings.json (memory.enabled); -p uses it only with --enable-memory.`);
    });
  program
    .command("forget <ids...>")
    .description("remove memories by id")
    .action(async (ids: string[]) => {
      const removed = await space().forget(ids);
      for (const record of removed) out(`Forgot ${record.id} (${record.subject}).`);
      const missing = ids.filter((id) => !removed.some((record) => record.id === id));
      if (missing.length > 0) throw new MemoryCommandError(`no memory ${missing.join(", ")} here (agent memory list shows them)`);
    });
  program
    .command("export")
    .description("print this repository's memories and yours as JSONL")
    .action(() => {
      for (const record of space().read().records) out(JSON.stringify(record));
    });
  try {
    await program.parseAsync([...args], { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof MemoryCommandError || error instanceof MemoryStoreError || error instanceof SettingsError) {
      process.stderr.write(`agent: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
