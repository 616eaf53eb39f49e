/** The default subagent limits (a module of its own: the command line reads it without loading the engine). */
import type { SubagentLimits } from "./subagent-host.js";

export const DEFAULT_SUBAGENT_LIMITS: SubagentLimits = { maxDepth: 6, maxConcurrent: 8, maxTurns: 50 };
