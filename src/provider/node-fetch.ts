/**
 * A `fetch` for the openai client built on node:http. Node 20's built-in fetch (undici) keeps the
 * process alive for a while after the last response; Node's http Agent unrefs idle keep-alive sockets, so
 * a finished `agent -p` exits at once. Only what the client uses is supported: string or byte bodies. Neither
 * the request nor the response touches the global Headers or Response, so a run over it never loads undici.
 */
import http from "node:http";
import { createRequire } from "node:module";
import { pipeline, Readable } from "node:stream";
import { PlainHeaders } from "./plain-headers.js";
import { PlainResponse } from "./plain-response.js";

// node:https (with tls and its crypto) and node:zlib are loaded only when an endpoint needs them: an http one
// that does not compress its answers (a local server, the tests' and the bench's) needs neither.
const requireBuiltin = createRequire(import.meta.url);
const httpAgent = new http.Agent({ keepAlive: true });
let httpsParts: { https: typeof import("node:https"); agent: import("node:https").Agent } | undefined;
function httpsTransport(): NonNullable<typeof httpsParts> {
  if (!httpsParts) {
    const https = requireBuiltin("node:https") as typeof import("node:https");
    httpsParts = { https, agent: new https.Agent({ keepAlive: true }) };
  }
  return httpsParts;
}

type FetchInput = string | URL | Request;

function abortError(signal: AbortSignal): Error {
  if (signal.reason instanceof Error) return signal.reason;
  const error = new Error("The operation was aborted.");
  error.name = "AbortError";
  return error;
}

async function bodyBytes(body: RequestInit["body"]): Promise<Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  // Anything else (FormData, streams) goes through the Response machinery to become bytes.
  return Buffer.from(await new Response(body).arrayBuffer());
}

/** A body the server compressed (as fetch would, which node:http does not do on its own). */
function decoded(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  if (encoding === "" || encoding === "identity") return response;
  const zlib = requireBuiltin("node:zlib") as typeof import("node:zlib");
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip()
      : encoding === "deflate"
        ? zlib.createInflate()
        : encoding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return response;
  // pipeline destroys the decoder when the response fails or is aborted, so the reader sees the error.
  pipeline(response, decoder, () => undefined);
  return decoder;
}

function toHeaders(raw: http.IncomingHttpHeaders): PlainHeaders {
  const headers = new PlainHeaders();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

export async function nodeFetch(input: FetchInput, init: RequestInit = {}): Promise<Response> {
  // By its tag: `instanceof Request` would load undici (see plain-headers.ts) just to ask.
  if (Object.prototype.toString.call(input) === "[object Request]") return globalThis.fetch(input, init);
  const url = new URL(input as string | URL);
  if (url.protocol !== "http:" && url.protocol !== "https:") return globalThis.fetch(input, init);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortError(signal);
  const body = await bodyBytes(init.body);
  const headers: Record<string, string> = {};
  // Not the global Headers: its first use loads undici, which a request over node:http does not need.
  new PlainHeaders(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  if (body && headers["content-length"] === undefined) headers["content-length"] = String(body.length);
  const secure = url.protocol === "https:" ? httpsTransport() : undefined;

  return new Promise<Response>((resolve, reject) => {
    const options = { method: init.method ?? "GET", headers };
    const request = secure ? secure.https.request(url, { ...options, agent: secure.agent }) : http.request(url, { ...options, agent: httpAgent });
    const onAbort = () => {
      const error = abortError(signal as AbortSignal);
      request.destroy(error);
      reject(error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    request.on("response", (response) => {
      const status = response.statusCode ?? 0;
      const nullBody = status === 204 || status === 304 || init.method === "HEAD";
      response.on("close", () => signal?.removeEventListener("abort", onAbort));
      if (signal) {
        // After the headers, an abort has to end the body stream too.
        signal.removeEventListener("abort", onAbort);
        const onBodyAbort = () => response.destroy(abortError(signal));
        signal.addEventListener("abort", onBodyAbort, { once: true });
        response.on("close", () => signal.removeEventListener("abort", onBodyAbort));
      }
      // What `new Response` refused (it threw here, out of the event handler); node:http parses any three digits.
      if (status < 200 || status > 599) {
        response.destroy();
        reject(new RangeError(`The endpoint answered with status ${status}, outside HTTP's 200 to 599.`));
        return;
      }
      const stream = nullBody ? null : decoded(response);
      if (nullBody) response.resume();
      // Not the global Response (its first use loads undici): the clients get what they read of one.
      const plain = new PlainResponse(stream, { status, statusText: response.statusMessage ?? "", headers: toHeaders(response.headers) });
      resolve(plain as unknown as Response);
    });
    request.end(body);
  });
}

/**
 * What a process's first answer sets up (the web-stream adapter over the response and its reader, the plain
 * response and headers), done ahead: the TUI calls it once its session is open, in an idle moment, so the first
 * prompt's answer does not hold the keyboard for it. Like nodeFetch, it never touches the global Response.
 */
export async function warmResponses(): Promise<void> {
  const body = Readable.toWeb(Readable.from([Buffer.from("data: {}\n\n")])) as unknown as ReadableStream<Uint8Array>;
  const response = new PlainResponse(body, { status: 200, statusText: "OK", headers: toHeaders({ "content-type": "text/event-stream" }) });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  while (!(await reader.read()).done);
}
