/**
 * The server's output (src/server/coalescing-writable.ts) and the moment its engine may load: after the handshake's
 * answer has reached the real output, never before (the engine loads in one synchronous stretch that would hold the
 * answer back). The server's front with vscode-jsonrpc over in-memory streams; the engine is not loaded.
 */
import { PassThrough, Writable } from "node:stream";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js";
import { describe, expect, it } from "vitest";
import { AgentServer } from "../../src/server/agent-server.js";
import { CoalescingWritable } from "../../src/server/coalescing-writable.js";
import type { SessionHost } from "../../src/server/session-host.js";

/** A real output that records what reached it. */
function recordingOutput(): { target: Writable; written: () => string } {
  const chunks: Buffer[] = [];
  const target = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { target, written: () => Buffer.concat(chunks).toString() };
}

describe("the server's coalescing output", () => {
  it("runs what waits for the next write once that write has reached the output, in one piece with its neighbours", async () => {
    const { target, written } = recordingOutput();
    const output = new CoalescingWritable(target);
    const seen: string[] = [];
    output.afterNextWrite(() => seen.push(written()));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([]);
    output.write("Content-Length: 2\r\n\r\n");
    output.write("{}");
    expect(seen).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["Content-Length: 2\r\n\r\n{}"]);
    output.write("more");
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(1);
  });
});

describe("the server's handshake", () => {
  it("is answered on the output before the engine is asked for", async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const { target, written } = recordingOutput();
    target.on("finish", () => fromServer.end());
    const tee = new Writable({
      write(chunk: Buffer, encoding, done) {
        target.write(chunk, encoding);
        fromServer.write(chunk, done);
      },
    });
    const events: string[] = [];
    let handshook!: () => void;
    const handshake = new Promise<void>((resolve) => (handshook = resolve));
    const server = new AgentServer({
      version: "test",
      host: () => {
        events.push("host");
        return new Promise<SessionHost>(() => undefined);
      },
      onShutdownRequest: () => undefined,
      onHandshake: () => {
        events.push(written().includes('"protocolVersion":3') ? "handshake after its answer was out" : "handshake before its answer");
        handshook();
      },
    });
    const output = new CoalescingWritable(tee);
    const serverSide = createMessageConnection(new StreamMessageReader(toServer), new StreamMessageWriter(output));
    void server.serve(serverSide, { needsToken: false, afterWrite: (run) => output.afterNextWrite(run) });
    const client = createMessageConnection(new StreamMessageReader(fromServer), new StreamMessageWriter(toServer));
    client.listen();
    const answer = await client.sendRequest<{ protocolVersion: number }>("connect", {});
    expect(answer.protocolVersion).toBe(3);
    await handshake;
    expect(events).toEqual(["handshake after its answer was out"]);
    client.dispose();
    serverSide.dispose();
  });
});
