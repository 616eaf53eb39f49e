/**
 * The session's side of compaction, kept out of the facade: the options every agent's runtime gets (the
 * session folder for checkpoints, the settings, the preCompact hook as that agent), and /context's report.
 */
import type { AnyTool } from "../../tools/define-tool.js";
import type { Emit } from "../event-sink.js";
import type { SessionHooks } from "../session-hooks.js";
import { DEFAULT_COMPACTION, type CompactionSettings, type Compactor, type CompactorDeps } from "./compactor.js";
import type { ContextBreakdown } from "./token-accounting.js";
import type { McpManager } from "../../mcp/index.js";
import { listCheckpoints } from "../session-admin/session-report.js";
import { contextAttribution, type ContextAttribution } from "./context-attribution.js";

/** How long /context waits for the endpoint's model listing before it reports with the limit it has. */
const PROBE_TIMEOUT_MS = 3_000;

export function compactionOptions(input: {
  sessionDir: string;
  settings: Partial<CompactionSettings> | undefined;
  hooks: SessionHooks | undefined;
  emit: Emit;
  agentId?: string;
}): Pick<CompactorDeps, "sessionDir" | "settings" | "preCompact" | "agentId"> {
  const { hooks, emit } = input;
  return {
    sessionDir: input.sessionDir,
    settings: { ...DEFAULT_COMPACTION, ...input.settings },
    ...(hooks?.has("preCompact") ? { preCompact: (trigger: "manual" | "auto", focus: string | undefined) => hooks.preCompact(emit, trigger, focus) } : {}),
    ...(input.agentId ? { agentId: input.agentId } : {}),
  };
}

/**
 * /context: the breakdown from memory (no model call), also told as session.usage_info for every face. An
 * unset prompt limit is first looked up in the endpoint's model listing (once per model).
 */
export async function reportContext(
  compactor: Compactor | undefined,
  mcpTools: readonly AnyTool[],
  emit: Emit,
  board?: { tokens: number; budgetTokens: number },
): Promise<ContextBreakdown | undefined> {
  if (!compactor) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const patience = new Promise<void>((resolve) => (timer = setTimeout(resolve, PROBE_TIMEOUT_MS)));
  await Promise.race([compactor.probeLimits(), patience]);
  clearTimeout(timer);
  const mcp = new Set(mcpTools.map((tool) => tool.name));
  const whole = compactor.breakdown((name) => mcp.has(name));
  // Memory's board is part of the system prompt: its own row, taken out of the prompt's.
  const boardTokens = Math.min(board?.tokens ?? 0, whole.systemTokens);
  const breakdown: ContextBreakdown = board
    ? { ...whole, systemTokens: whole.systemTokens - boardTokens, contextBoard: { tokens: boardTokens, budgetTokens: board.budgetTokens } }
    : whole;
  emit("session.usage_info", {
    tokenLimit: breakdown.tokenLimit,
    currentTokens: breakdown.currentTokens,
    messagesLength: breakdown.messagesLength,
    systemTokens: breakdown.systemTokens,
    conversationTokens: breakdown.messagesTokens,
    toolDefinitionsTokens: breakdown.toolsTokens + breakdown.mcpToolsTokens,
    mcpToolsTokens: breakdown.mcpToolsTokens,
    ...(breakdown.contextBoard ? { contextBoardTokens: breakdown.contextBoard.tokens } : {}),
  });
  return breakdown;
}

/** The window by source (the SDK's context attribution): MCP tools by their server, instruction files apart. */
export function attributeContext(
  compactor: Compactor | undefined,
  mcp: McpManager | undefined,
  instructions: readonly { content: string }[],
  sessionDir: string,
): ContextAttribution | undefined {
  if (!compactor) return undefined;
  const serverOfTool = new Map<string, string>();
  for (const server of mcp?.list() ?? []) for (const tool of server.tools) serverOfTool.set(tool, server.name);
  const contents = compactor.contents((name) => serverOfTool.has(name));
  const instructionChars = instructions.reduce((sum, file) => sum + file.content.length, 0);
  return contextAttribution(contents, (name) => serverOfTool.get(name), instructionChars, listCheckpoints(sessionDir).length);
}
