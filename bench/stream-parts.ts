/**
 * The parts of a streamed answer's path that run per chunk, each alone in a fresh process (as `agent -p` runs
 * them: cold), CPU time of 2,000 chat chunks. Before/after figures for docs/benchmarks.md:
 *
 *   npx tsx bench/stream-parts.ts sse-sdk|sse [events per network piece]   SSE decoding: the openai SDK's
 *       decoder behind a replaying stream (as before) or eventsource-parser on the reader (as now)
 *   npx tsx bench/stream-parts.ts zod|plain                                 chunk checks: the schemas or plainChunk
 *
 * Run each mode several times, interleaved, and compare medians.
 */
import { _iterSSEMessages } from "openai/core/streaming";
import { chunkSchema, ResponseAssembler } from "../src/provider/chat-chunks.js";
import { sseDataEvents } from "../src/provider/stream-body.js";

const CHUNKS = 2000;
const chunk = (i: number) =>
  `{"id":"c","object":"chat.completion.chunk","created":1,"model":"bench-model","choices":[{"index":0,"delta":{"content":"tok${i} "},"finish_reason":null}]}`;

async function decode(mode: string, perPiece: number): Promise<number> {
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  for (let i = 0; i < CHUNKS; i += perPiece) {
    let text = "";
    for (let j = i; j < Math.min(CHUNKS, i + perPiece); j++) text += `data: ${chunk(j)}\n\n`;
    pieces.push(encoder.encode(text));
  }
  const reader = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  }).getReader();
  let count = 0;
  if (mode === "sse-sdk") {
    const replay = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
    });
    for await (const message of _iterSSEMessages(new Response(replay), new AbortController())) if (message.data.trim() !== "") count++;
  } else {
    const body = {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      },
    };
    for await (const _ of sseDataEvents(body)) count++;
  }
  return count;
}

function check(mode: string): number {
  const assembler = new ResponseAssembler("m", { onText: () => undefined, onReasoning: () => undefined }, { maxOutputTokens: 1e9 });
  const values = Array.from({ length: CHUNKS }, (_, i) => JSON.parse(chunk(i)) as Record<string, unknown>);
  chunkSchema().safeParse(values[0]);
  const start = process.cpuUsage();
  // A model name that is not a string sends a chunk through the schemas (they catch it), as every chunk went before.
  for (const value of values) assembler.add(mode === "zod" ? { ...value, model: 0 } : value, "");
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const mode = process.argv[2] ?? "sse";
if (mode === "zod" || mode === "plain") console.log(`${mode}: ${check(mode).toFixed(1)} ms CPU for ${CHUNKS} chunks`);
else {
  // The agent has undici loaded (the client's Headers) before its first chunk: so here too.
  new Response("");
  const perPiece = Number(process.argv[3] ?? 1) || 1;
  const start = process.cpuUsage();
  const count = await decode(mode, perPiece);
  const used = process.cpuUsage(start);
  console.log(`${mode} (${perPiece} per piece): ${((used.user + used.system) / 1000).toFixed(1)} ms CPU for ${count} events`);
}
