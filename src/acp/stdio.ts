/** The ACP connection over this process's stdin and stdout (newline-delimited JSON, framed by the ACP library). */
import { Readable, Writable } from "node:stream";
import { ndJsonStream, type Stream } from "@agentclientprotocol/sdk";

export function stdioStream(): Stream {
  const output = Writable.toWeb(process.stdout) as WritableStream<Uint8Array>;
  const input = Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>;
  return ndJsonStream(output, input);
}
