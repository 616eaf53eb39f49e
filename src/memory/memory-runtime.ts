/** What memory loads once it is on: the session's stores, the board it starts with, and the memory tools. */
import { boardOf, buildBoard, type Board } from "./context-board.js";
import { MemorySpace } from "./memory-space.js";
import type { SessionMemoryOptions } from "./session-memory.js";
import { createMemoryTools } from "./tools/memory-tools.js";

export function loadMemory(options: SessionMemoryOptions) {
  const space = new MemorySpace(options.agentHome, options.cwd);
  const problems: string[] = [];
  let board: Board;
  try {
    const scan = space.scan();
    board = boardOf(scan, { budgetTokens: options.settings.boardTokens });
    for (const line of scan.problems) problems.push(`${line.file} line ${line.line} is not a memory (${line.problem}); it is kept in the file and ignored.`);
  } catch (error) {
    // An unreadable store leaves the board empty; the session goes on and says why.
    board = buildBoard([], { budgetTokens: options.settings.boardTokens });
    problems.push((error as Error).message);
  }
  const tools = createMemoryTools({
    space,
    sessionId: options.sessionId,
    transcriptFile: options.transcriptFile,
    unattended: options.unattended === true,
  });
  return { space, board, tools, problems };
}
