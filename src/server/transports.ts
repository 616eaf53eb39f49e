/**
 * The two ways the SDK reaches the server, both Content-Length framed JSON-RPC (vscode-jsonrpc, the
 * library the SDK itself uses): the process's stdin/stdout (`--stdio`, the SDK's default), or TCP
 * (`--port N`, 0 for any free port), announced on stdout as the SDK expects ("listening on port N").
 */
import net from "node:net";
import { createMessageConnection, SocketMessageReader, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js";
import { CoalescingWritable } from "./coalescing-writable.js";
import type { AgentServer } from "./agent-server.js";

/** Serves the one client on stdin/stdout; resolves when it has gone (stdin closed) and its sessions are shut down. */
export function serveStdio(server: AgentServer): Promise<void> {
  const output = new CoalescingWritable(process.stdout);
  const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(output));
  return server.serve(connection, { needsToken: false, afterWrite: (run) => output.afterNextWrite(run) });
}

/** Listens on 127.0.0.1; each connection is a client of its own. Resolves with the port once listening. */
export function serveTcp(server: AgentServer, port: number, log: (message: string) => void): Promise<{ port: number; close(): void }> {
  const listener = net.createServer((socket) => {
    socket.setNoDelay(true);
    const output = new CoalescingWritable(socket);
    const connection = createMessageConnection(new SocketMessageReader(socket), new StreamMessageWriter(output));
    void server.serve(connection, { needsToken: true, afterWrite: (run) => output.afterNextWrite(run) }).then(() => socket.destroy());
    socket.on("error", (error) => log(`client connection: ${error.message}`));
  });
  return new Promise((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(port, "127.0.0.1", () => {
      const address = listener.address() as net.AddressInfo;
      resolve({ port: address.port, close: () => listener.close() });
    });
  });
}
