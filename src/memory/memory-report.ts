/** Memories for a person to read: what /memory show and `agent memory list|show` print. */
import { boardLine, type Board } from "./context-board.js";
import type { MemoryRecord } from "./memory-record.js";
import type { MemorySpace } from "./memory-space.js";

export function memoryLines(records: readonly MemoryRecord[]): string[] {
  return records.map((record) => `${boardLine(record)} · score ${record.score}`);
}

/** Where the session's memories live, how many there are, what is wrong in the files. */
export function describeStores(space: MemorySpace): string[] {
  const { records, problems } = space.read();
  const count = (scope: MemoryRecord["scope"]) => records.filter((record) => record.scope === scope).length;
  return [
    `This repository (${space.key.identity}): ${count("repository")} memor${count("repository") === 1 ? "y" : "ies"} in ${space.repository.file}`,
    `Yours, in every repository: ${count("user")} in ${space.user.file}`,
    ...problems.map((problem) => `${problem.file} line ${problem.line}: not a memory (${problem.problem}); kept in the file, ignored`),
  ];
}

/** The board as the model gets it (or would, for a session started now), with its size against the budget. */
export function describeBoard(board: Board, heading: string): string[] {
  if (board.shown.length === 0) return [`${heading}: empty.`];
  return [
    `${heading} (${board.tokens} of ${board.budgetTokens} tokens${board.leftOut > 0 ? `; ${board.leftOut} more did not fit` : ""}):`,
    ...memoryLines(board.shown).map((line) => `  ${line}`),
  ];
}
