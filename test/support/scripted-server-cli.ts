/**
 * Run the scripted OpenAI-compatible server by hand:
 *
 *   npx tsx test/support/scripted-server-cli.ts [--port N] [--script file.json] [--model ID]
 *
 * Prints `OPENAI_BASE_URL=<baseUrl>` as the first stdout line, logs requests to stderr, and
 * runs until SIGINT/SIGTERM. `--script`: a JSON array of ScriptedResponse served in order;
 * afterwards (and without a script) the demo responder answers (see demo-responder.ts).
 */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { demoResponder } from "./demo-responder.js";
import { startScriptedServer, type ScriptedResponse } from "./scripted-server.js";

const USAGE = `Usage: node --import tsx test/support/scripted-server-cli.ts [--port N] [--script file.json] [--model ID]

A model server for trying agent by hand: Chat Completions, the Responses API (COPILOT_PROVIDER_WIRE_API=responses)
and Anthropic Messages (COPILOT_PROVIDER_TYPE=anthropic), all at the same address. The first stdout line is
OPENAI_BASE_URL=<url>; requests are logged to stderr; it runs until Ctrl-C.

  --port N            listen on this port (default: a free one)
  --script file.json  a JSON array of scripted responses, served in order, one per request, e.g.
                      [{"kind":"stream","text":"Hello"},
                       {"kind":"stream","toolCalls":[{"name":"bash","arguments":{"command":"ls"}}]},
                       {"kind":"error","status":429,"headers":{"retry-after":"0"}}]
                      kinds: stream (text, reasoning, toolCalls, chunkDelayMs, …), error, drop, hang, json, raw
                      (see test/support/scripted-responses.ts)
  --model ID          the model id it lists (default: scripted-model)

After the script (and without one) the demo model answers: a user message gets a short text and a bash
call running \`ls\`; a tool result gets "The command printed N lines." (or a task_complete call in
autopilot).

Then, in another terminal:
  OPENAI_BASE_URL=<url> AGENT_MODEL=demo AGENT_HOME=$(mktemp -d) node bin/agent.js -p "list the files"
`;

const KINDS = new Set(["stream", "error", "drop", "hang", "json", "raw"]);

/** Validate a parsed script file (shallowly: an array of objects with a known `kind`). */
function parseScript(json: unknown, source = "script"): ScriptedResponse[] {
  if (!Array.isArray(json)) throw new Error(`${source}: expected a JSON array of scripted responses`);
  return json.map((item: unknown, i) => {
    const kind = typeof item === "object" && item !== null ? (item as Record<string, unknown>)["kind"] : undefined;
    if (typeof kind !== "string" || !KINDS.has(kind)) {
      throw new Error(`${source}[${i}]: "kind" must be one of ${[...KINDS].join(", ")}`);
    }
    if (kind === "error" && typeof (item as Record<string, unknown>)["status"] !== "number") {
      throw new Error(`${source}[${i}]: an error response needs a numeric "status"`);
    }
    return item as ScriptedResponse;
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: "string" }, script: { type: "string" }, model: { type: "string" }, help: { type: "boolean", short: "h" } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port: ${values.port}`);
  const script = values.script === undefined ? [] : parseScript(JSON.parse(await readFile(values.script, "utf8")) as unknown, values.script);

  const server = await startScriptedServer({
    port,
    script,
    responder: demoResponder,
    ...(values.model !== undefined ? { model: values.model } : {}),
  });
  server.on("request", (req) => process.stderr.write(`[scripted-server] ${req.method} ${req.path}\n`));
  process.stdout.write(`OPENAI_BASE_URL=${server.baseUrl}\n`);
  process.stderr.write(`[scripted-server] listening; ${script.length} scripted response(s), then the demo responder. Ctrl-C to stop.\n`);

  const stop = (signal: NodeJS.Signals): void => {
    process.stderr.write(`[scripted-server] ${signal}: shutting down\n`);
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`scripted-server: ${error instanceof Error ? error.message : String(error)} (--help shows the usage)\n`);
  process.exit(1);
});
