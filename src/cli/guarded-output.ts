/**
 * stdout and stderr that may close under us: `agent -p … | head -1` closes the pipe after one line, and the
 * next write fails with EPIPE. That is a normal ending, not a crash: the first failure marks the stream
 * closed, later writes are dropped, and the owner is told once (headless stops the turn and exits quietly).
 */
import type { Output } from "./text-printer.js";

export class GuardedOutput implements Output {
  private isClosed = false;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly onClose: () => void = () => undefined,
  ) {
    // Pipes report EPIPE as an 'error' event; without a listener it would be thrown as an uncaught exception.
    stream.on("error", () => this.close());
  }

  get closed(): boolean {
    return this.isClosed;
  }

  write(text: string): void {
    if (this.isClosed) return;
    try {
      this.stream.write(text);
    } catch {
      this.close();
    }
  }

  private close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.onClose();
  }
}
