/**
 * Resolves once the event loop has polled for input after this call: work that follows (building a request)
 * lets a key typed just before it be read and drawn first. An immediate queued from an I/O callback runs before
 * the next poll; one queued from that immediate runs after it.
 */
export function afterNextPoll(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
