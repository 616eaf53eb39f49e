/** HTTP plumbing for the scripted server: writing one `ScriptedResponse`, reading and validating requests. */
import type http from "node:http";
import { buildCompletionBody, type RenderContext } from "./scripted-chunks.js";
import { buildWireFrames } from "./scripted-wire-frames.js";
import { httpError } from "./scripted-responses.js";
import type { ChatRequestBody, CompletionRequest, RawResponse, ScriptedResponse, StreamResponse } from "./scripted-responses.js";
import type { Wire } from "./scripted-wires.js";

/** "aborted": the connection closed (client abort or server close) before the response ended. */
export type ResponseOutcome = "completed" | "dropped" | "aborted";

export interface WriteContext {
  request: CompletionRequest;
  defaultModel: string;
  /** Called when a stall point (`hang` / `hangAfterChunks`) is reached. */
  onHang: (chunksSent: number) => void;
}

interface Connection {
  closed: Promise<void>;
  isClosed: () => boolean;
  stall: (chunksSent: number) => Promise<"aborted">;
}

/** Write `response` to `res`; resolves when the response is over (ended, dropped, or its connection closed). */
export async function writeScriptedResponse(res: http.ServerResponse, response: ScriptedResponse, ctx: WriteContext): Promise<ResponseOutcome> {
  let isClosed = false;
  const closed = new Promise<void>((resolve) =>
    res.once("close", () => {
      isClosed = true;
      resolve();
    }),
  );
  const conn: Connection = {
    closed,
    isClosed: () => isClosed || res.destroyed,
    stall: async (chunksSent) => {
      ctx.onHang(chunksSent);
      await closed;
      return "aborted";
    },
  };
  switch (response.kind) {
    case "error":
      res.writeHead(response.status, { "content-type": "application/json", ...response.headers });
      res.end(serializeBody(wireErrorBody(ctx.request.wire, response.body ?? httpError(response.status).body)));
      return "completed";
    case "json":
      res.writeHead(response.status ?? 200, { "content-type": "application/json", ...response.headers });
      res.end(serializeBody(response.body));
      return "completed";
    case "drop":
      res.socket?.destroy();
      return "dropped";
    case "hang":
      return conn.stall(0);
    case "stream":
      return writeStream(res, response, ctx, conn);
    case "raw":
      return writeRaw(res, response, conn);
  }
}

async function writeRaw(res: http.ServerResponse, response: RawResponse, conn: Connection): Promise<ResponseOutcome> {
  const framed = response.frames !== undefined || response.repeat !== undefined || response.keepAlive !== undefined || response.timed !== undefined;
  res.writeHead(response.status ?? 200, { ...(framed ? { "content-type": "text/event-stream" } : {}), ...response.headers });
  res.flushHeaders();
  for (const frame of response.frames ?? []) res.write(`data: ${frame}\n\n`);
  if (response.body !== undefined) res.write(response.body);
  if (response.bodyBase64 !== undefined) res.write(Buffer.from(response.bodyBase64, "base64"));
  if (response.keepAlive !== undefined || response.timed !== undefined) {
    const { keepAlive } = response;
    const ticker = keepAlive
      ? setInterval(() => {
          if (!conn.isClosed()) res.write(keepAlive.text);
        }, keepAlive.everyMs)
      : undefined;
    try {
      for (const piece of response.timed ?? []) {
        await delay(piece.afterMs, conn.closed);
        if (conn.isClosed()) return "aborted";
        res.write(piece.text);
      }
      if (response.timed === undefined) {
        await conn.closed;
        return "aborted";
      }
    } finally {
      clearInterval(ticker);
    }
  }
  if (response.repeat !== undefined) {
    const frame = `data: ${response.repeat}\n\n`;
    while (!conn.isClosed()) {
      // Wait for the socket to drain now and then, so a client that stops reading is noticed.
      if (!res.write(frame)) await Promise.race([new Promise((resolve) => res.once("drain", resolve)), conn.closed]);
      else await new Promise((resolve) => setImmediate(resolve));
    }
    return "aborted";
  }
  res.end();
  return "completed";
}

async function writeStream(res: http.ServerResponse, response: StreamResponse, ctx: WriteContext, conn: Connection): Promise<ResponseOutcome> {
  const { request } = ctx;
  const render: RenderContext = {
    id: `chatcmpl-scripted-${request.index}`,
    created: Math.floor(Date.now() / 1000),
    model: response.model ?? request.body.model ?? ctx.defaultModel,
    index: request.index,
    request: request.body,
    wireBody: request.wireBody,
  };
  const requestId = { "x-request-id": `req_scripted_${request.index}` };
  if (request.body.stream !== true) {
    if (response.dropAfterChunks !== undefined) {
      res.socket?.destroy();
      return "dropped";
    }
    if (response.hangAfterChunks !== undefined) return conn.stall(0);
    sendJson(res, 200, buildCompletionBody(response, render), requestId);
    return "completed";
  }
  const frames = buildWireFrames(request.wire, response, render);
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive", ...requestId });
  res.flushHeaders();
  // A drop after N chunks means the client got those N chunks: wait until they are written, then cut.
  let lastWrite: Promise<void> = Promise.resolve();
  for (let i = 0; i <= frames.length; i++) {
    if (conn.isClosed()) return "aborted";
    if (response.dropAfterChunks !== undefined && i >= response.dropAfterChunks) {
      await lastWrite;
      res.socket?.destroy();
      return "dropped";
    }
    if (response.hangAfterChunks !== undefined && i >= response.hangAfterChunks) return conn.stall(i);
    for (const pause of response.pauses ?? []) if (pause.afterChunks === i) await Promise.race([pause.until, conn.closed]);
    const group = frames[i];
    if (group === undefined) break;
    if (i > 0 && (response.chunkDelayMs ?? 0) > 0) await delay(response.chunkDelayMs ?? 0, conn.closed);
    if (conn.isClosed()) return "aborted";
    if (group.length > 0) lastWrite = new Promise<void>((resolve) => res.write(group.join(""), () => resolve()));
  }
  res.end();
  return "completed";
}

const ANTHROPIC_ERROR_TYPES: Record<string, string> = {
  rate_limit_error: "rate_limit_error",
  authentication_error: "authentication_error",
  invalid_request_error: "invalid_request_error",
  server_error: "api_error",
};

/**
 * An OpenAI-style error body (`{"error":{"message","type","code"}}`) as the wire would send it: Anthropic's is
 * `{"type":"error","error":{"type","message"}}`. Any other body is sent as given.
 */
export function wireErrorBody(wire: Wire, body: unknown): unknown {
  if (wire !== "anthropic" || typeof body !== "object" || body === null || !("error" in body)) return body;
  const error = (body as { error: unknown }).error;
  if (typeof error !== "object" || error === null || !("message" in error)) return body;
  const { message, type, code } = error as { message: unknown; type?: unknown; code?: unknown };
  const details = typeof code === "string" ? { details: { error_code: code } } : {};
  return { type: "error", error: { type: ANTHROPIC_ERROR_TYPES[String(type)] ?? String(type ?? "api_error"), message, ...details } };
}

export function isChatRequestBody(body: unknown): body is ChatRequestBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  const messages = record["messages"];
  if (!Array.isArray(messages)) return false;
  if (record["model"] !== undefined && typeof record["model"] !== "string") return false;
  return messages.every((m: unknown) => typeof m === "object" && m !== null && typeof (m as Record<string, unknown>)["role"] === "string");
}

export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
    req.on("close", () => {
      if (!req.complete) reject(new Error("request aborted"));
    });
  });
}

/** Parsed JSON; the raw text when it is not JSON; undefined when empty. */
export function parseJson(raw: string): unknown {
  if (raw === "") return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function serializeBody(body: unknown): string {
  return typeof body === "string" ? body : JSON.stringify(body);
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function delay(ms: number, closed: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), closed]).finally(() => clearTimeout(timer));
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
