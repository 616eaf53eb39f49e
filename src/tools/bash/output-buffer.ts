/**
 * Bounded capture of a command's output: the first bytes (head) and the last bytes (tail) of what the model has
 * not read yet, with byte counts, while the full output goes to a file. Memory stays at roughly
 * headBytes + tailBytes per shell however much a command prints.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { dirname } from "node:path";
import { makePrivateDir, openPrivateFile } from "../../util/private-files.js";

export const DEFAULT_HEAD_BYTES = 10 * 1024;
export const DEFAULT_TAIL_BYTES = 20 * 1024;

export interface OutputLimits {
  headBytes: number;
  tailBytes: number;
}

export interface RenderedOutput {
  /** Head + marker + tail, or everything when nothing was dropped. */
  text: string;
  /** Bytes the window received. */
  bytes: number;
  /** Bytes left out between head and tail (0 when not truncated). */
  omittedBytes: number;
}

function isContinuationByte(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** Splits `text` into a prefix of at most `maxBytes` UTF-8 bytes and the rest, never inside a character. */
export function splitUtf8(text: string, maxBytes: number): [string, string] {
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length <= maxBytes) return [text, ""];
  let cut = Math.max(0, maxBytes);
  while (cut > 0 && isContinuationByte(buffer[cut])) cut--;
  return [buffer.subarray(0, cut).toString("utf8"), buffer.subarray(cut).toString("utf8")];
}

/** The last at most `maxBytes` UTF-8 bytes of `text`, starting on a character boundary. */
export function lastUtf8Bytes(text: string, maxBytes: number): string {
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length <= maxBytes) return text;
  let start = buffer.length - maxBytes;
  while (start < buffer.length && isContinuationByte(buffer[start])) start++;
  return buffer.subarray(start).toString("utf8");
}

function formatBytes(bytes: number): string {
  return bytes.toLocaleString("en-US");
}

export function truncationMarker(omittedBytes: number, fullOutputPath: string | undefined): string {
  const where = fullOutputPath ? `; the full output is in ${fullOutputPath}` : "";
  return `[... ${formatBytes(omittedBytes)} bytes of output omitted${where} ...]`;
}

interface TailChunk {
  text: string;
  bytes: number;
}

/** Head + ring-buffer tail over one stretch of output. */
export class OutputWindow {
  private head = "";
  private headBytes = 0;
  private headClosed = false;
  private tail: TailChunk[] = [];
  private tailStart = 0;
  private tailBytes = 0;
  /** Everything appended, including what was dropped. */
  bytes = 0;

  constructor(private readonly limits: OutputLimits) {}

  append(text: string): void {
    if (text === "") return;
    this.bytes += Buffer.byteLength(text, "utf8");
    let rest = text;
    if (!this.headClosed) {
      const [head, after] = splitUtf8(text, this.limits.headBytes - this.headBytes);
      this.head += head;
      this.headBytes += Buffer.byteLength(head, "utf8");
      rest = after;
      if (rest !== "") this.headClosed = true;
    }
    if (rest !== "") this.pushTail(rest);
  }

  private pushTail(text: string): void {
    const limit = this.limits.tailBytes;
    const trimmed = lastUtf8Bytes(text, limit);
    const chunk = { text: trimmed, bytes: Buffer.byteLength(trimmed, "utf8") };
    this.tail.push(chunk);
    this.tailBytes += chunk.bytes;
    for (;;) {
      const first = this.tail[this.tailStart];
      if (!first || this.tailBytes - first.bytes < limit) break;
      this.tailBytes -= first.bytes;
      this.tailStart++;
    }
    if (this.tailStart > 64 && this.tailStart * 2 > this.tail.length) {
      this.tail = this.tail.slice(this.tailStart);
      this.tailStart = 0;
    }
  }

  /** Bytes held in memory: bounded by headBytes + 2 × tailBytes. */
  get retainedBytes(): number {
    return this.headBytes + this.tailBytes;
  }

  render(fullOutputPath?: string): RenderedOutput {
    let tail = "";
    for (let i = this.tailStart; i < this.tail.length; i++) tail += (this.tail[i] as TailChunk).text;
    tail = lastUtf8Bytes(tail, this.limits.tailBytes);
    const omittedBytes = this.bytes - this.headBytes - Buffer.byteLength(tail, "utf8");
    if (omittedBytes <= 0) return { text: this.head + tail, bytes: this.bytes, omittedBytes: 0 };
    const head = this.head.endsWith("\n") || this.head === "" ? this.head : `${this.head}\n`;
    const marker = truncationMarker(omittedBytes, fullOutputPath);
    return { text: `${head}${marker}\n${tail}`, bytes: this.bytes, omittedBytes };
  }
}

/**
 * The full output on disk. The file is only created once the output grows past `threshold` bytes (the point
 * from which a rendered window can be truncated); before that the output is kept in memory, so short commands
 * leave no files behind. Once open, writes are appended as they arrive.
 */
export class FullOutputFile {
  private pending: string[] = [];
  private pendingBytes = 0;
  private stream: WriteStream | undefined;
  private closed = false;
  error: Error | undefined;

  constructor(
    readonly path: string,
    private readonly threshold: number,
  ) {}

  /** Whether the file exists (has been opened without error). */
  get available(): boolean {
    return this.stream !== undefined && this.error === undefined;
  }

  /** Returns false when the caller should wait for `drained()` before writing more (backpressure). */
  write(text: string): boolean {
    if (this.closed || this.error) return true;
    if (!this.stream) {
      this.pending.push(text);
      this.pendingBytes += Buffer.byteLength(text, "utf8");
      if (this.pendingBytes <= this.threshold) return true;
      return this.open();
    }
    return this.stream.write(text);
  }

  private open(): boolean {
    let fd: number;
    try {
      // Command output is the session's own: private, like the rest of the session folder.
      makePrivateDir(dirname(this.path));
      fd = openPrivateFile(this.path, "w");
    } catch (error) {
      this.error = error as Error;
      this.pending = [];
      return true;
    }
    const stream = createWriteStream(this.path, { fd });
    stream.on("error", (error) => {
      this.error = error;
    });
    this.stream = stream;
    const ok = stream.write(this.pending.join(""));
    this.pending = [];
    this.pendingBytes = 0;
    return ok;
  }

  drained(): Promise<void> {
    const stream = this.stream;
    if (!stream || this.error || !stream.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        stream.off("drain", done);
        stream.off("close", done);
        resolve();
      };
      stream.on("drain", done);
      stream.on("close", done);
    });
  }

  /** Flushes and closes the file; later writes are ignored. */
  close(): Promise<void> {
    this.closed = true;
    this.pending = [];
    const stream = this.stream;
    if (!stream || stream.closed) return Promise.resolve();
    return new Promise((resolve) => {
      stream.once("close", () => resolve());
      stream.end();
    });
  }
}

export interface OutputBufferOptions {
  /** Where the full output lives. */
  fullOutputPath: string;
  /** False when something else (a detached process) writes the file itself. */
  writeFile: boolean;
  limits?: Partial<OutputLimits>;
}

/** A shell's output: the unread window for the model plus the full output on disk. */
export class OutputBuffer {
  private readonly limits: OutputLimits;
  private unread: OutputWindow;
  private readonly file: FullOutputFile | undefined;
  readonly fullOutputPath: string;
  totalBytes = 0;

  constructor(options: OutputBufferOptions) {
    this.limits = {
      headBytes: options.limits?.headBytes ?? DEFAULT_HEAD_BYTES,
      tailBytes: options.limits?.tailBytes ?? DEFAULT_TAIL_BYTES,
    };
    this.unread = new OutputWindow(this.limits);
    this.fullOutputPath = options.fullOutputPath;
    const threshold = this.limits.headBytes + this.limits.tailBytes;
    this.file = options.writeFile ? new FullOutputFile(options.fullOutputPath, threshold) : undefined;
  }

  /** Returns false when the file writer is backed up; pause the source until `drained()`. */
  append(text: string): boolean {
    if (text === "") return true;
    this.totalBytes += Buffer.byteLength(text, "utf8");
    this.unread.append(text);
    return this.file ? this.file.write(text) : true;
  }

  drained(): Promise<void> {
    return this.file ? this.file.drained() : Promise.resolve();
  }

  get unreadBytes(): number {
    return this.unread.bytes;
  }

  get retainedBytes(): number {
    return this.unread.retainedBytes;
  }

  /** The path of the full output when it exists on disk, for telemetry and markers. */
  get savedPath(): string | undefined {
    if (!this.file) return this.fullOutputPath;
    return this.file.available ? this.fullOutputPath : undefined;
  }

  /** Renders what has not been read yet and marks it read. */
  takeUnread(): RenderedOutput {
    const rendered = this.unread.render(this.savedPath);
    this.unread = new OutputWindow(this.limits);
    return rendered;
  }

  close(): Promise<void> {
    return this.file ? this.file.close() : Promise.resolve();
  }
}

/** Output followed by a status line on its own line; just the line when there is no output. */
export function withStatusLine(output: string, line: string): string {
  if (output === "") return line;
  return output.endsWith("\n") ? `${output}${line}` : `${output}\n${line}`;
}
