/**
 * The memory tools, with Copilot CLI's names: `store_memory`, `read_memories`, `vote_memory`, and the
 * rem-agent's `context_board` and `session_digest` (offered only to an agent whose tools list names them).
 * Every change to a store asks under the `memory` permission kind (subject, fact, citations), like a write:
 * `--allow-tool memory` allows them all. A fact that looks like a secret is refused before anyone is asked.
 */
import type { AnyTool } from "../../tools/define-tool.js";
import { contextBoardTool } from "./context-board-tool.js";
import type { MemoryToolDeps } from "./memory-tool-parts.js";
import { sessionDigestTool } from "./session-digest-tool.js";
import { readMemoriesTool, storeMemoryTool, voteMemoryTool } from "./store-memory-tools.js";

export function createMemoryTools(deps: MemoryToolDeps): AnyTool[] {
  return [storeMemoryTool(deps), readMemoriesTool(deps), voteMemoryTool(deps), contextBoardTool(deps), sessionDigestTool(deps)];
}
