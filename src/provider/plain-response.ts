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
  #body: ReadableStream<Uint8Array> | null;

  constructor(body: ReadableStream<Uint8Array> | null, init: PlainResponseInit) {
    this.#body = body;
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

  /** Read from or cancelled, through `body` or a method here (the standard's "disturbed"). */
  get bodyUsed(): boolean {
    // Node's isDisturbed reads web streams too; its typing lists only Node's own.
    return this.#body !== null && Readable.isDisturbed(this.#body as unknown as NodeJS.ReadableStream);
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
    if (this.#body) [this.#body, body] = this.#body.tee();
    return new PlainResponse(body, { status: this.status, statusText: this.statusText, headers: new PlainHeaders(this.headers) });
  }

  async #consume(): Promise<Uint8Array> {
    if (!this.#body) return new Uint8Array(0);
    if (this.bodyUsed || this.#body.locked) throw unusable();
    const reader = this.#body.getReader();
    const pieces: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces.push(value);
    }
    return Buffer.concat(pieces);
  }
}
