/**
 * The model a replay talks to: a local OpenAI-compatible endpoint on 127.0.0.1 that answers each chat
 * request with a recorded answer, streamed as the real wire does (so the request goes through the real
 * client and the answer through the real stream reader). Which answer is the caller's choice, made from the
 * request it sees; no usage is reported (the log does not keep the endpoint's token counts).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RecordedAnswer } from "./replay-script.js";

/** The answer for a request's body, or a reason there is none (sent back as an error the client will not retry). */
export type Answerer = (body: Record<string, unknown>) => RecordedAnswer | { error: string };

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: "replay", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function streamOf(model: string, answer: RecordedAnswer): string {
  if (answer.kind === "compaction") return chunk(model, { role: "assistant", content: answer.summary }) + chunk(model, {}, "stop");
  let body = chunk(model, { role: "assistant", content: answer.content });
  answer.toolCalls.forEach((call, index) => {
    body += chunk(model, { tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }] });
  });
  const finish = answer.finishReason ?? (answer.toolCalls.length > 0 ? "tool_calls" : "stop");
  return body + chunk(model, {}, finish);
}

export class RecordedEndpoint {
  private server: http.Server | undefined;

  constructor(
    private readonly model: string,
    private readonly answer: Answerer,
  ) {}

  /** Listens on a free port of 127.0.0.1; resolves with the base URL (…/v1). */
  async start(): Promise<string> {
    const server = http.createServer((request, response) => void this.handle(request, response));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const part of request) chunks.push(part as Buffer);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.method === "GET" && request.url?.endsWith("/models")) return send(200, { object: "list", data: [{ id: this.model, object: "model" }] });
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) return send(404, { error: { message: "not found" } });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      return send(400, { error: { message: "the request was not JSON" } });
    }
    const answer = this.answer(body);
    if ("error" in answer) return send(400, { error: { message: answer.error, type: "replay" } });
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(`${streamOf(typeof body.model === "string" ? body.model : this.model, answer)}data: [DONE]\n\n`);
  }

  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  }
}
