/** One line on a finished compaction, the same in every face (TUI transcript, `-p` stderr). */
import type { EventData } from "../../protocol/events/index.js";
import { formatTokenCount } from "./context-report.js";

export function compactionLine(data: EventData<"session.compaction_complete">): string {
  if (!data.success) return `Compaction failed, the conversation is unchanged: ${data.error ?? "no reason given"}`;
  const removed = data.messagesRemoved ?? 0;
  const tokens =
    data.preCompactionTokens !== undefined && data.postCompactionTokens !== undefined
      ? ` (${formatTokenCount(data.preCompactionTokens)} → ${formatTokenCount(data.postCompactionTokens)} tokens)`
      : "";
  const why =
    data.trigger === "threshold" ? " as the context filled up" : data.trigger === "context_limit_retry" ? " after the model refused a request as too long" : "";
  const checkpoint =
    data.checkpointNumber !== undefined ? ` · checkpoint ${data.checkpointNumber}${data.checkpointPath ? `: ${data.checkpointPath}` : ""}` : "";
  return `Conversation compacted${why}: ${removed} message${removed === 1 ? "" : "s"} summarised${tokens}${checkpoint}`;
}
