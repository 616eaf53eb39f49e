/**
 * A scripted OpenAI-compatible HTTP server for tests, end-to-end runs and benchmarks.
 *
 *   const server = await startScriptedServer();
 *   server.enqueue(toolCall("view", { path: "a.ts" }), text("Done."));
 *   const client = new OpenAI({ baseURL: server.baseUrl, apiKey: "test", maxRetries: 0 });
 *   ...
 *   await server.close();
 *
 * Routes: the model request of each wire (next queued response, else `options.responder`, else 500 "script
 * exhausted"): `POST /v1/chat/completions` (Chat Completions), `POST /v1/responses` (the Responses API) and
 * `POST /v1/messages` (Anthropic Messages), all from the same scripts and recorded in one wire-neutral form
 * (scripted-wires.ts); and `GET /v1/models`. Everything else → 404.
 */
import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import {
  errorMessage,
  isChatRequestBody,
  parseJson,
  readBody,
  sendJson,
  wireErrorBody,
  writeScriptedResponse,
  type ResponseOutcome,
} from "./scripted-respond.js";
import { neutralRequest, WIRE_PATHS, WIRES, type Wire } from "./scripted-wires.js";
import { errorBody } from "./scripted-responses.js";
import type { CompletionRequest, RecordedRequest, Responder, ScriptedResponse } from "./scripted-responses.js";

export * from "./scripted-responses.js";
export { WIRES, type Wire } from "./scripted-wires.js";
export type { ResponseOutcome } from "./scripted-respond.js";

export interface ScriptedServerOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** Model id listed by `GET /v1/models` and used in chunks when the request has none. Default "scripted-model". */
  model?: string;
  /** Ids listed by `GET /v1/models` (default: `[model]`); `null` makes that route answer 404, as servers that cannot list do. */
  models?: string[] | null;
  /** Extra fields of every listed model (a context length: `{ max_model_len: 8192 }`). */
  modelFields?: Record<string, unknown>;
  /** Called for completion requests once the queue is empty. */
  responder?: Responder;
  /** Initial queue (same as calling `enqueue`). */
  script?: ScriptedResponse[];
}

/** Reported when a response reaches its stall point (`hang`, or `hangAfterChunks`). */
export interface HangInfo {
  request: CompletionRequest;
  /** Data frames written before stalling (0 for `{ kind: "hang" }`). */
  chunksSent: number;
}

/** How a completion response ended. "aborted": the connection closed (client abort or server close) before the end. */
export interface ResponseInfo {
  request: CompletionRequest;
  response: ScriptedResponse | undefined;
  outcome: ResponseOutcome;
}

export interface ScriptedServerEvents {
  request: [RecordedRequest];
  completion: [CompletionRequest];
  hang: [HangInfo];
  response: [ResponseInfo];
}

type EventName = keyof ScriptedServerEvents;
type Listener<E extends EventName> = (...args: ScriptedServerEvents[E]) => void;

export const SCRIPT_EXHAUSTED_MESSAGE = "scripted server: script exhausted";

export class ScriptedServer {
  /** e.g. "http://127.0.0.1:41234/v1" — pass as the OpenAI client's baseURL. */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[] = [];
  /** Only the model requests (any wire), in the wire-neutral form. */
  readonly completionRequests: CompletionRequest[] = [];
  /** Stall points reached so far. */
  readonly hangs: HangInfo[] = [];

  private readonly queue: ScriptedResponse[] = [];
  private readonly events = new EventEmitter();
  private readonly sockets = new Set<Socket>();
  private closing: Promise<void> | undefined;

  constructor(
    private readonly httpServer: http.Server,
    private readonly options: ScriptedServerOptions,
  ) {
    const address = httpServer.address() as AddressInfo;
    this.port = address.port;
    this.baseUrl = `http://127.0.0.1:${address.port}/v1`;
    this.events.setMaxListeners(0);
    httpServer.on("connection", (socket: Socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    httpServer.on("request", (req, res) => void this.handle(req, res));
    this.enqueue(...(options.script ?? []));
  }

  /** Append responses to the queue; returns the server for chaining. */
  enqueue(...responses: ScriptedResponse[]): this {
    this.queue.push(...responses);
    return this;
  }

  /** Number of queued responses not yet served. */
  get pending(): number {
    return this.queue.length;
  }

  on<E extends EventName>(event: E, listener: Listener<E>): this {
    this.events.on(event, listener as (...args: unknown[]) => void);
    return this;
  }

  off<E extends EventName>(event: E, listener: Listener<E>): this {
    this.events.off(event, listener as (...args: unknown[]) => void);
    return this;
  }

  /** Resolves once `n` completion requests have arrived in total (immediately if already so). */
  waitForRequests(n: number, options: { timeoutMs?: number } = {}): Promise<CompletionRequest[]> {
    return this.waitFor(
      "completion",
      () => this.completionRequests.length >= n,
      () => this.completionRequests.slice(0, n),
      options.timeoutMs,
      `${n} completion request(s)`,
    );
  }

  /** Resolves once `n` stall points have been reached in total (immediately if already so). */
  waitForHang(n = 1, options: { timeoutMs?: number } = {}): Promise<HangInfo> {
    return this.waitFor(
      "hang",
      () => this.hangs.length >= n,
      () => this.hangs[n - 1] as HangInfo,
      options.timeoutMs,
      `hang #${n}`,
    );
  }

  /** Stop listening and destroy every open socket (hung responses included). Idempotent. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.httpServer.close(() => resolve());
      this.httpServer.closeAllConnections();
      for (const socket of this.sockets) socket.destroy();
      this.events.emit("closed");
    });
    return this.closing;
  }

  private waitFor<T>(event: EventName, done: () => boolean, value: () => T, timeoutMs: number | undefined, what: string): Promise<T> {
    if (done()) return Promise.resolve(value());
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const cleanup = (): void => {
        this.events.off(event, check);
        this.events.off("closed", onClosed);
        if (timer) clearTimeout(timer);
      };
      const check = (): void => {
        if (!done()) return;
        cleanup();
        resolve(value());
      };
      const onClosed = (): void => {
        cleanup();
        reject(new Error(`scripted server closed while waiting for ${what}`));
      };
      this.events.on(event, check);
      this.events.on("closed", onClosed);
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          cleanup();
          reject(new Error(`scripted server: timed out after ${timeoutMs}ms waiting for ${what}`));
        }, timeoutMs);
      }
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    req.on("error", () => {});
    res.on("error", () => {});
    try {
      const rawBody = await readBody(req);
      const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname.replace(/\/+$/, "");
      const recorded: RecordedRequest = { method: req.method ?? "GET", path, headers: req.headers, body: parseJson(rawBody), rawBody };
      this.requests.push(recorded);
      this.events.emit("request", recorded);
      const wire = WIRES.find((candidate) => WIRE_PATHS[candidate] === path);
      if (recorded.method === "POST" && wire) {
        await this.handleCompletion(recorded, wire, res);
      } else if (recorded.method === "GET" && path === "/v1/models") {
        const ids = this.options.models === undefined ? [this.options.model ?? "scripted-model"] : this.options.models;
        if (ids === null) sendJson(res, 404, errorBody("scripted server: this endpoint does not list models", "invalid_request_error"));
        else sendJson(res, 200, { object: "list", data: ids.map((id) => ({ id, object: "model", owned_by: "test", ...this.options.modelFields })) });
      } else {
        sendJson(res, 404, errorBody(`scripted server: no route for ${recorded.method} ${path}`, "invalid_request_error"));
      }
    } catch (error) {
      if (!res.headersSent && !res.destroyed) sendJson(res, 500, errorBody(`scripted server: ${errorMessage(error)}`));
      else res.destroy();
    }
  }

  private async handleCompletion(recorded: RecordedRequest, wire: Wire, res: http.ServerResponse): Promise<void> {
    const body = wire === "chat" ? (isChatRequestBody(recorded.body) ? recorded.body : undefined) : neutralRequest(wire, recorded.body);
    if (!body) {
      const expected = wire === "responses" ? "an input" : "a messages array";
      sendJson(res, 400, wireErrorBody(wire, errorBody(`scripted server: body must be a JSON object with ${expected}`, "invalid_request_error")));
      return;
    }
    const request: CompletionRequest = { ...recorded, body, index: this.completionRequests.length, wire, wireBody: recorded.body };
    this.completionRequests.push(request);
    this.events.emit("completion", request);

    let response = this.queue.shift();
    if (response === undefined && this.options.responder) {
      try {
        response = await this.options.responder(request);
      } catch (error) {
        sendJson(res, 500, wireErrorBody(wire, errorBody(`scripted server: responder threw: ${errorMessage(error)}`)));
        this.emitResponse({ request, response: undefined, outcome: "completed" });
        return;
      }
    }
    if (response === undefined) {
      sendJson(res, 500, wireErrorBody(wire, errorBody(SCRIPT_EXHAUSTED_MESSAGE)));
      this.emitResponse({ request, response, outcome: "completed" });
      return;
    }
    const outcome = await writeScriptedResponse(res, response, {
      request,
      defaultModel: this.options.model ?? "scripted-model",
      onHang: (chunksSent) => {
        const info: HangInfo = { request, chunksSent };
        this.hangs.push(info);
        this.events.emit("hang", info);
      },
    });
    this.emitResponse({ request, response, outcome });
  }

  private emitResponse(info: ResponseInfo): void {
    this.events.emit("response", info);
  }
}

/** Start a scripted server on 127.0.0.1 (port 0 = any free port unless `options.port`). */
export async function startScriptedServer(options: ScriptedServerOptions = {}): Promise<ScriptedServer> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return new ScriptedServer(server, options);
}
