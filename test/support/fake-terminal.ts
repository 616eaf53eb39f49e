/** A terminal for Ink's own render(): collects what is written (escape sequences stripped) and waits on text. */
import { Writable } from "node:stream";
import stripAnsi from "strip-ansi";

export class FakeTerminal extends Writable {
  text = "";
  isTTY = true;
  private waiters: { wanted: string; resolve(): void }[] = [];
  constructor(
    public columns = 80,
    public rows = 24,
  ) {
    super();
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += stripAnsi(chunk.toString("utf8"));
    this.waiters = this.waiters.filter((waiter) => (this.text.includes(waiter.wanted) ? (waiter.resolve(), false) : true));
    done();
  }
  waitFor(wanted: string): Promise<void> {
    return this.text.includes(wanted) ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ wanted, resolve }));
  }
}
