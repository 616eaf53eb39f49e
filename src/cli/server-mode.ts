/**
 * `agent --headless --stdio` / `agent --headless --port N`: the CLI the Copilot SDK starts and drives.
 * Started straight from main.ts: the transport and the handshake come first (vscode-jsonrpc and the
 * server's front only, ES modules), and the rest (the command line, settings, the engine) loads once the
 * handshake is answered, so the SDK's `start()` does not wait for it. Nothing but protocol messages goes to stdout.
 */
import { AgentServer } from "../server/agent-server.js";
import { ClientInference } from "../server/client-inference.js";
import type { SessionHost } from "../server/session-host.js";
import { serveStdio, serveTcp } from "../server/transports.js";
import { cachedBundle } from "../util/vendor-bundle.js";
import { ExitCode } from "./exit-codes.js";
import { unknownServerFlag } from "./server-flags.js";

declare const AGENT_VERSION: string;
declare const AGENT_SERVER_PROGRAM_ID: string | undefined;

/**
 * For a client that sends something else first (or nothing yet): the engine loads this long after the server is up
 * even without a handshake, so that a session's first request finds it ready.
 */
const LOAD_WITHOUT_HANDSHAKE_MS = 200;

/**
 * The engine: in the build, from the server's script of the program (dist/chunks/server-program.cjs: program.cjs and
 * the engine, scripts/build.mjs), whose compiled code V8 caches where Node 20 caches no ES module's (~25 ms of
 * compiling a start-up's 60-odd engine chunks). It loads in one synchronous stretch, which is why it waits for the
 * handshake. From source (tests of the modules), the ES module.
 */
function engineModule(): Promise<typeof import("./server-engine.js")> {
  if (typeof AGENT_SERVER_PROGRAM_ID !== "string") return import("./server-engine.js");
  return Promise.resolve().then(() => (cachedBundle("server-program.cjs", AGENT_SERVER_PROGRAM_ID) as typeof import("./program.js")).loadServerEngine());
}

/**
 * The transport, read before the full command line is parsed: `--stdio`, or TCP on `--port N` (`--port=N`).
 * As with Copilot's runtime, `--headless` without `--stdio` is TCP, on a free port when none is named (the
 * SDK's TCP connection passes no --port unless the application chose one). Undefined means stdio.
 */
export function serverPort(args: readonly string[]): number | undefined {
  if (args.includes("--stdio")) return undefined;
  for (const [index, arg] of args.entries()) {
    const value = arg === "--port" ? args[index + 1] : arg.startsWith("--port=") ? arg.slice("--port=".length) : undefined;
    if (value !== undefined && /^\d+$/.test(value)) return Number(value);
  }
  return 0;
}

export async function runServer(args: readonly string[]): Promise<number> {
  const log = (message: string) => process.stderr.write(`agent: ${message}\n`);
  // Refused before the handshake, as Copilot's runtime does: the SDK's start() fails with this on stderr.
  const unknown = unknownServerFlag(args);
  if (unknown !== undefined) {
    process.stderr.write(`error: unknown option '${unknown}'\n`);
    return ExitCode.usage;
  }
  // Whatever a library prints must not corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  let stopping: Promise<void> | undefined;
  let stopTcp = (): void => undefined;
  const stop = (code: number = ExitCode.ok) => {
    stopping ??= server.closeAll().finally(() => {
      stopTcp();
      process.exit(code);
    });
    return stopping;
  };
  const inference = new ClientInference();
  let loading: Promise<SessionHost> | undefined;
  const load = (): Promise<SessionHost> => {
    if (loading) return loading;
    loading = engineModule().then(({ loadSessionHost }) => loadSessionHost(args, inference));
    // A command line or configuration the server cannot run with ends it, after saying why.
    loading.catch((error: Error) => {
      log(error.message);
      void stop(ExitCode.config);
    });
    return loading;
  };
  const fallback = setTimeout(() => void load(), LOAD_WITHOUT_HANDSHAKE_MS).unref();
  const server = new AgentServer({
    version: typeof AGENT_VERSION === "string" ? AGENT_VERSION : "0.0.0-dev",
    host: load,
    onHandshake: () => {
      clearTimeout(fallback);
      setImmediate(() => void load());
    },
    inference,
    ...(process.env.COPILOT_CONNECTION_TOKEN ? { connectionToken: process.env.COPILOT_CONNECTION_TOKEN } : {}),
    // The client closes the pipe (or kills the process) next; if it does neither, the process ends anyway.
    onShutdownRequest: () => setTimeout(() => void stop(), 2000).unref(),
  });
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  const port = serverPort(args);
  if (port === undefined) {
    await serveStdio(server);
    await stop();
    return ExitCode.ok;
  }
  const listening = await serveTcp(server, port, log);
  stopTcp = listening.close;
  process.stdout.write(`CLI server listening on port ${listening.port}\n`);
  // Runs until SIGTERM or runtime.shutdown.
  return new Promise<number>(() => undefined);
}
