/**
 * An SDK client as the model transport (the SDK's `requestHandler`, registered by
 * `llmInference.setProvider`): every model request of the sessions opened while it is registered goes to
 * that client instead of the network, as Copilot's runtime does. A request is a `llmInference.
 * httpRequestStart` request to the client with its head (url, method, headers, the session and agent it is
 * for), then its body in `llmInference.httpRequestChunk` frames; the client answers with
 * `llmInference.httpResponseStart` (status, headers) and `httpResponseChunk` frames (the body, or an error).
 * An abort is a chunk with `cancel`. One client per process holds the role, until its connection closes.
 */
import { randomUUID } from "../util/random-id.js";
import type { MessageConnection } from "vscode-jsonrpc";
import type { ProviderFetch } from "../provider/provider-config.js";

/** Who a request is for, told to the client with its head. */
export interface InferenceContext {
  sessionId: string;
}

interface Pending {
  resolve(response: Response): void;
  reject(error: Error): void;
  body?: ReadableStreamDefaultController<Uint8Array>;
  settle(): void;
}

// Read by hand rather than with zod: this file loads with the server's front, before the engine.
type Fields = Record<string, unknown>;
const fields = (params: unknown): Fields => (params && typeof params === "object" ? (params as Fields) : {});
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

function abortError(signal: AbortSignal): Error {
  if (signal.reason instanceof Error) return signal.reason;
  const error = new Error("The operation was aborted.");
  error.name = "AbortError";
  return error;
}

async function requestParts(input: string | URL | Request, init: RequestInit = {}) {
  const request = input instanceof Request ? input : undefined;
  const url = request ? request.url : String(input);
  const method = (init.method ?? request?.method ?? "GET").toUpperCase();
  const headers: Record<string, string[]> = {};
  new Headers(init.headers ?? request?.headers).forEach((value, name) => {
    (headers[name] ??= []).push(value);
  });
  const body = init.body ?? (request?.body ? await request.arrayBuffer() : undefined);
  const bodyText = typeof body === "string" ? body : undefined;
  const bytes = bodyText === undefined && body !== undefined && body !== null ? Buffer.from(await new Response(body).arrayBuffer()) : undefined;
  return { url, method, headers, text: bodyText, bytes };
}

export class ClientInference {
  private holder: MessageConnection | undefined;
  private readonly pending = new Map<string, Pending>();

  /** The client becomes the transport; a second one, while the first is connected, is refused. */
  setProvider(connection: MessageConnection): { success: boolean } {
    if (this.holder && this.holder !== connection) throw new Error("Another client is already the LLM inference provider.");
    this.holder = connection;
    return { success: true };
  }

  /** The client's connection closed: requests in flight fail, and new sessions use the network again. */
  release(connection: MessageConnection): void {
    if (this.holder !== connection) return;
    this.holder = undefined;
    for (const [requestId, pending] of this.pending) {
      this.pending.delete(requestId);
      const error = new Error("The client carrying model requests disconnected.");
      pending.reject(error);
      pending.body?.error(error);
    }
  }

  /**
   * The fetch for a session's providers while a client is the transport; undefined otherwise. Once that client
   * is gone, the session's requests go to the network again (or through the client that took its place).
   */
  fetchFor(context: InferenceContext): ProviderFetch | undefined {
    if (!this.holder) return undefined;
    // node-fetch.js is loaded only then: this file loads with the server's front.
    return async (input, init) =>
      this.holder ? this.forward(this.holder, context, input, init) : (await import("../provider/node-fetch.js")).nodeFetch(input, init);
  }

  private async forward(connection: MessageConnection, context: InferenceContext, input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    if (signal?.aborted) throw abortError(signal);
    const { url, method, headers, text: bodyText, bytes } = await requestParts(input, init);
    const requestId = randomUUID();
    const subagent = headers["x-initiator"]?.includes("sub-agent") ?? false;
    let cancel = (): void => undefined;
    const response = new Promise<Response>((resolve, reject) => {
      const pending: Pending = { resolve, reject, settle: () => signal?.removeEventListener("abort", cancel) };
      this.pending.set(requestId, pending);
      cancel = () => {
        this.pending.delete(requestId);
        pending.settle();
        const error = abortError(signal as AbortSignal);
        reject(error);
        try {
          pending.body?.error(error);
        } catch {
          // The body was already read to its end.
        }
        void connection
          .sendRequest("llmInference.httpRequestChunk", { requestId, data: "", end: true, cancel: true, cancelReason: "The request was aborted." })
          .catch(() => undefined);
      };
      signal?.addEventListener("abort", cancel, { once: true });
    });
    try {
      await connection.sendRequest("llmInference.httpRequestStart", {
        requestId,
        sessionId: context.sessionId,
        method,
        url,
        headers,
        transport: "http",
        agentId: context.sessionId,
        interactionType: subagent ? "conversation-subagent" : "conversation-agent",
      });
      await connection.sendRequest("llmInference.httpRequestChunk", {
        requestId,
        data: bodyText ?? bytes?.toString("base64") ?? "",
        ...(bytes ? { binary: true } : {}),
        end: true,
      });
    } catch (error) {
      this.fail(requestId, error instanceof Error ? error : new Error(String(error)));
    }
    return response;
  }

  private fail(requestId: string, error: Error): void {
    const pending = this.pending.get(requestId);
    if (!pending) return;
    this.pending.delete(requestId);
    pending.settle();
    pending.reject(error);
    pending.body?.error(error);
  }

  /** `llmInference.httpResponseStart`: the response's head; its body follows in chunks. */
  responseStart(params: unknown): { accepted: boolean } {
    const { requestId, status, statusText, headers } = fields(params);
    const pending = this.pending.get(text(requestId) ?? "");
    if (!pending || typeof status !== "number") return { accepted: false };
    const head = new Headers();
    for (const [name, values] of Object.entries(fields(headers))) {
      for (const value of Array.isArray(values) ? values : [values]) if (typeof value === "string") head.append(name, value);
    }
    const body = NULL_BODY.has(status)
      ? null
      : new ReadableStream<Uint8Array>({
          start: (controller) => {
            pending.body = controller;
          },
        });
    // A status fetch cannot represent (1xx) is the client's failure to answer.
    const valid = status >= 200 && status <= 599 ? status : 502;
    pending.resolve(new Response(body, { status: valid, statusText: text(statusText) ?? "", headers: head }));
    return { accepted: true };
  }

  /** `llmInference.httpResponseChunk`: part of the body, its end, or a failure. */
  responseChunk(params: unknown): { accepted: boolean } {
    const { requestId: id, data, binary, end, error } = fields(params);
    const requestId = text(id) ?? "";
    const pending = this.pending.get(requestId);
    if (!pending) return { accepted: false };
    if (error) {
      this.fail(requestId, new Error(`The client's request handler failed: ${text(fields(error).message) ?? "unknown error"}`));
      return { accepted: true };
    }
    const chunk = text(data);
    if (chunk) pending.body?.enqueue(binary === true ? new Uint8Array(Buffer.from(chunk, "base64")) : new TextEncoder().encode(chunk));
    if (end) {
      this.pending.delete(requestId);
      pending.settle();
      try {
        pending.body?.close();
      } catch {
        // A null-body response has no stream to close.
      }
    }
    return { accepted: true };
  }
}
