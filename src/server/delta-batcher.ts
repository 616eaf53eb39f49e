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

function streamOf(event: Delta): string {
  const data = event.data as { messageId?: string; reasoningId?: string; parentToolCallId?: string };
  return JSON.stringify([event.type, event.agentId, data.messageId ?? data.reasoningId, data.parentToolCallId]);
}

export class DeltaBatcher {
  private pending: { event: Delta; stream: string } | undefined;

  constructor(private readonly send: (event: SessionEvent) => void) {}

  push(event: SessionEvent): void {
    if (!isDelta(event)) {
      this.flush();
      this.send(event);
      return;
    }
    const stream = streamOf(event);
    const waiting = this.pending;
    if (waiting && waiting.stream === stream) {
      const joined = {
        ...event,
        parentId: waiting.event.parentId,
        data: { ...event.data, deltaContent: waiting.event.data.deltaContent + event.data.deltaContent },
      };
      this.pending = { event: joined as Delta, stream };
      return;
    }
    this.flush();
    this.pending = { event, stream };
    setImmediate(this.flush);
  }

  readonly flush = (): void => {
    const waiting = this.pending;
    this.pending = undefined;
    if (waiting) this.send(waiting.event);
  };
}
