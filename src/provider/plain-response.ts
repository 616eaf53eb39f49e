/**
 * The response node-fetch.ts gives the clients: what the openai and Anthropic SDKs and our readers use of a
 * fetch `Response` (status, ok, statusText, url, headers, the body as a web ReadableStream, bodyUsed, text(),
 * json(), arrayBuffer(), clone()), without the global `Response`: on Node 20 its first use loads all of undici,
 * ~20 ms of CPU and 2–3 MB of peak RSS in a run that never needs it (docs/benchmarks.md).
 * test/provider/plain-response.test.ts holds it to the real Response's behaviour.
 */
import { Readable } from "node:stream";
import { PlainHeaders } from "./plain-headers.js";

export interface PlainResponseInit {
  status: number;
  statusText: string;
  headers: PlainHeaders;
}

/** What stream-body.ts reads of a body's reader. */
export interface BodyReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
}

function unusable(): TypeError {
  return new TypeError("Body is unusable: Body has already been read");
}

export class PlainResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: PlainHeaders;
  /** A response made by `new Response(…)`, as node-fetch.ts made them, has no URL. */
  readonly url = "";
  readonly redirected = false;
  readonly type = "default";
  /** The body as a web stream; undefined until asked for when the body came as a Node stream (#source). */
  #web: ReadableStream<Uint8Array> | null | undefined;
  #source: Readable | undefined;
  /** Whether bodyReader() has read from #source (the web stream's "disturbed", for a body read without one). */
  #sourceRead = false;

  /**
   * The body as a web stream or as a Node stream: a Node stream becomes a web stream only when `body` (or a method
   * that reads through it) is first used. Setting up Node's web streams is ~0.75 MB of a `-p` run's peak RSS, and
   * our own reader (stream-body.ts) reads the Node stream directly through bodyReader().
   */
  constructor(body: ReadableStream<Uint8Array> | Readable | null, init: PlainResponseInit) {
    if (body instanceof Readable) this.#source = body;
    else this.#web = body;
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#body;
  }

  get #body(): ReadableStream<Uint8Array> | null {
    if (this.#web === undefined) this.#web = this.#source ? (Readable.toWeb(this.#source) as unknown as ReadableStream<Uint8Array>) : null;
    return this.#web;
  }

  /** Read from or cancelled, through `body` or a method here (the standard's "disturbed"). */
  get bodyUsed(): boolean {
    if (this.#sourceRead) return true;
    if (this.#web === undefined) return false;
    // Node's isDisturbed reads web streams too; its typing lists only Node's own.
    return this.#web !== null && Readable.isDisturbed(this.#web as unknown as NodeJS.ReadableStream);
  }

  /** A reader of a body not read yet, for the methods that read it whole. */
  #unusedReader(): BodyReader | null {
    if (this.bodyUsed || this.#web?.locked) throw unusable();
    return this.bodyReader();
  }

  /**
   * A reader of the body, as `body.getReader()` gives, but straight over the Node stream while nothing has asked for
   * the web stream; null when there is no body. Once taken, the body is used (as a web stream's reader locks it).
   */
  bodyReader(): BodyReader | null {
    if (this.#web !== undefined || !this.#source) return this.#body?.getReader() ?? null;
    if (this.#sourceRead) throw unusable();
    this.#sourceRead = true;
    const source = this.#source;
    const pieces = source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
    return {
      read: async () => {
        const next = await pieces.next();
        return next.done ? { done: true, value: undefined } : { done: false, value: next.value };
      },
      cancel: async () => {
        source.destroy();
      },
    };
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.#consume();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    // TextDecoder drops a leading byte-order mark, as the standard's "UTF-8 decode" does.
    return new TextDecoder().decode(await this.#consume());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  clone(): PlainResponse {
    if (this.bodyUsed || this.#body?.locked) throw new TypeError("Response.clone: Body has already been consumed.");
    let body: ReadableStream<Uint8Array> | null = null;
    const own = this.#body;
    if (own) [this.#web, body] = own.tee();
    return new PlainResponse(body, { status: this.status, statusText: this.statusText, headers: new PlainHeaders(this.headers) });
  }

  async #consume(): Promise<Uint8Array> {
    const reader = this.#unusedReader();
    if (!reader) return new Uint8Array(0);
    const pieces: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces.push(value);
    }
    return Buffer.concat(pieces);
  }
}
