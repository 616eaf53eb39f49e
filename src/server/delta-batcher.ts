/**
 * Streamed text deltas that arrive within one turn of the event loop (one network read often carries
 * dozens) go to the client as one delta: the text joined, the id of the last and the parentId of the first,
 * so the chain of ids stays whole. Deltas are ephemeral and only ever rendered, so the client shows the same
 * text; it is spared thousands of notifications in a long answer. Every other event passes at once, after
 * whatever delta is waiting, so the order is kept.
 */
import type { SessionEvent } from "../protocol/events/index.js";

type Delta = Extract<SessionEvent, { type: "assistant.message_delta" | "assistant.reasoning_delta" }>;

const isDelta = (event: SessionEvent): event is Delta => event.type === "assistant.message_delta" || event.type === "assistant.reasoning_delta";

/** What a delta belongs to: deltas join only within one stream (its type, agent, message or reasoning, tool call). */
function sameStream(a: Delta, b: Delta): boolean {
  const x = a.data as { messageId?: string; reasoningId?: string; parentToolCallId?: string };
  const y = b.data as typeof x;
  return (
    a.type === b.type &&
    a.agentId === b.agentId &&
    (x.messageId ?? x.reasoningId) === (y.messageId ?? y.reasoningId) &&
    x.parentToolCallId === y.parentToolCallId
  );
}

export class DeltaBatcher {
  /**
   * The deltas waiting: the first (its parentId), the last (everything else) and the text of all, joined once at the
   * flush rather than at every delta (a 2,000-token answer is as many deltas).
   */
  private pending: { first: Delta; last: Delta; texts: string[] } | undefined;

  constructor(private readonly send: (event: SessionEvent) => void) {}

  push(event: SessionEvent): void {
    if (!isDelta(event)) {
      this.flush();
      this.send(event);
      return;
    }
    const waiting = this.pending;
    if (waiting && sameStream(waiting.last, event)) {
      waiting.last = event;
      waiting.texts.push(event.data.deltaContent);
      return;
    }
    this.flush();
    this.pending = { first: event, last: event, texts: [event.data.deltaContent] };
    setImmediate(this.flush);
  }

  readonly flush = (): void => {
    const waiting = this.pending;
    this.pending = undefined;
    if (!waiting) return;
    const { first, last, texts } = waiting;
    if (texts.length === 1) return this.send(last);
    this.send({ ...last, parentId: first.parentId, data: { ...last.data, deltaContent: texts.join("") } } as Delta);
  };
}
