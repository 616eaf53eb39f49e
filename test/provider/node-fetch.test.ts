/**
 * The openai client's fetch over node:http (node-fetch.ts): an http endpoint's answer streams back with its
 * status and headers, an https one is spoken to in TLS from the first byte, a status outside 200–599 is an
 * error, and a request whose signal has already fired is never sent.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { nodeFetch } from "../../src/provider/node-fetch.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function listen<T extends net.Server>(server: T): Promise<number> {
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

describe("the fetch over node:http", () => {
  it("streams an http endpoint's answer with its status and headers", async () => {
    const server = http.createServer((request, response) => {
      let body = "";
      request.on("data", (piece: Buffer) => (body += piece.toString()));
      request.on("end", () => {
        response.writeHead(200, { "content-type": "text/event-stream", "x-echo": request.headers["x-test"] ?? "" });
        response.write(`data: ${body}\n\n`);
        response.end("data: [DONE]\n\n");
      });
    });
    server.keepAliveTimeout = 1;
    const port = await listen(server);
    const response = await nodeFetch(`http://127.0.0.1:${port}/v1/chat`, { method: "POST", body: '{"a":1}', headers: { "x-test": "yes" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-echo")).toBe("yes");
    expect(await response.text()).toBe('data: {"a":1}\n\ndata: [DONE]\n\n');
  });

  it("speaks TLS to an https endpoint", async () => {
    let firstByte = -1;
    const server = net.createServer((socket) => {
      socket.once("data", (piece: Buffer) => {
        firstByte = piece[0] ?? -1;
        socket.destroy();
      });
    });
    const port = await listen(server);
    await expect(nodeFetch(`https://127.0.0.1:${port}/v1/chat`, { method: "POST", body: "{}" })).rejects.toThrow();
    // 0x16: a TLS handshake record (the ClientHello).
    expect(firstByte).toBe(0x16);
  });

  it("rejects an answer whose status HTTP does not define, as the real Response refused one", async () => {
    const server = net.createServer((socket) => {
      socket.once("data", () => socket.end("HTTP/1.1 600 Odd\r\ncontent-length: 2\r\n\r\n{}"));
    });
    const port = await listen(server);
    await expect(nodeFetch(`http://127.0.0.1:${port}/v1/chat`, { method: "POST", body: "{}" })).rejects.toThrow(/status 600/);
  });

  it("refuses to start a request whose signal has already fired", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(nodeFetch("https://127.0.0.1:9/", { signal: controller.signal })).rejects.toThrow(/abort/i);
  });
});
