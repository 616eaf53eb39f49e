/**
 * What vscode-jsonrpc writes goes through here: it writes every message as two writes (the header, then
 * the body) and waits for each before the next. A streamed answer is thousands of small notifications, so
 * each write is taken at once (its callback called right away, without a stream's per-write ticks) and
 * everything written within one turn of the event loop reaches the real output as a single write: the same
 * bytes, in the same order, with a fraction of the calls.
 */
import { EventEmitter } from "node:events";

type Callback = (error?: Error | null) => void;

export class CoalescingWritable extends EventEmitter implements NodeJS.WritableStream {
  writable = true;
  private chunks: Buffer[] = [];
  private scheduled = false;
  /** Waiting for the next write, then for the flush that sends it (afterNextWrite). */
  private nextWrite: (() => void)[] = [];
  private written: (() => void)[] = [];

  constructor(private readonly target: NodeJS.WritableStream) {
    super();
    // The transport's end is the real output's end.
    for (const name of ["close", "error", "end"]) target.on(name, (...args: unknown[]) => this.emit(name, ...args));
  }

  write(data: string | Uint8Array, encodingOrCallback?: BufferEncoding | Callback, callback?: Callback): boolean {
    const encoding = typeof encodingOrCallback === "string" ? encodingOrCallback : "utf8";
    const done = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    this.chunks.push(typeof data === "string" ? Buffer.from(data, encoding) : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    if (this.nextWrite.length > 0) {
      this.written.push(...this.nextWrite);
      this.nextWrite = [];
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
    done?.();
    return true;
  }

  end(): this {
    this.flush();
    this.writable = false;
    return this;
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    if (this.chunks.length === 0) return;
    const data = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    this.chunks = [];
    this.target.write(data);
    const written = this.written;
    this.written = [];
    for (const run of written) run();
  };

  /**
   * Runs `run` once the next thing written has reached the real output: vscode-jsonrpc writes a request's answer a
   * tick or two after its handler returns, so a handler that wants to act after its answer is out asks for this.
   */
  afterNextWrite(run: () => void): void {
    this.nextWrite.push(run);
  }
}
