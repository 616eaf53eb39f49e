/**
 * The transcript's side of compaction and /context: a spinner while the main agent's conversation is being
 * compacted, one line when it is done (or failed), and /context's report as a grid item. Returns undefined
 * for events it does not handle, so reduce-transcript.ts stays the one place that routes events.
 */
import { compactionLine } from "../../core/compaction/compaction-line.js";
import type { SessionEvent } from "../../protocol/events/index.js";
import type { ContextUsageView, TranscriptState } from "./transcript-types.js";

export function reduceCompaction(state: TranscriptState, event: SessionEvent): TranscriptState | undefined {
  switch (event.type) {
    case "session.compaction_start":
      return { ...state, compacting: true };
    case "session.compaction_complete":
      return {
        ...state,
        compacting: false,
        items: [...state.items, { kind: "notice", id: event.id, level: event.data.success ? "info" : "warning", text: compactionLine(event.data) }],
      };
    case "session.usage_info": {
      const { data } = event;
      // A turn's usage_info (no breakdown) is the footer's business, in reduce-transcript.ts.
      if (data.systemTokens === undefined) return undefined;
      const usage = { currentTokens: data.currentTokens, tokenLimit: data.tokenLimit };
      const tools = data.toolDefinitionsTokens ?? 0;
      const mcp = data.mcpToolsTokens ?? 0;
      const context: ContextUsageView = {
        tokenLimit: data.tokenLimit,
        currentTokens: data.currentTokens,
        messagesLength: data.messagesLength,
        systemTokens: data.systemTokens,
        toolsTokens: tools - mcp,
        mcpToolsTokens: mcp,
        messagesTokens: data.conversationTokens ?? 0,
        ...(data.contextBoardTokens !== undefined ? { contextBoardTokens: data.contextBoardTokens } : {}),
      };
      return { ...state, usage, context };
    }
    case "session.info": {
      if (event.data.infoType !== "context" || !state.context) return undefined;
      const footnote = event.data.message.split("\n").at(-1)?.trim() ?? "";
      return { ...state, items: [...state.items, { kind: "context", id: event.id, usage: state.context, model: state.model, footnote }] };
    }
    default:
      return undefined;
  }
}
