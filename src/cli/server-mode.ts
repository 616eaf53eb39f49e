/**
 * `agent --headless --stdio` / `agent --headless --port N`: the CLI the Copilot SDK starts and drives.
 * Started straight from main.ts: the transport and the handshake come first (vscode-jsonrpc and the
 * server's front only), and the rest (the command line, settings, the engine) loads in the background,
 * so the SDK's `start()` does not wait for it. Nothing but protocol messages goes to stdout.
 */
import { AgentServer } from "../server/agent-server.js";
import { ClientInference } from "../server/client-inference.js";
import { serveStdio, serveTcp } from "../server/transports.js";
import { ExitCode } from "./exit-codes.js";
import { unknownServerFlag } from "./server-flags.js";

declare const AGENT_VERSION: string;

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
  const loading = import("./server-engine.js").then(({ loadSessionHost }) => loadSessionHost(args, inference));
  // A command line or configuration the server cannot run with ends it, after saying why.
  loading.catch((error: Error) => {
    log(error.message);
    void stop(ExitCode.config);
  });
  const server = new AgentServer({
    version: typeof AGENT_VERSION === "string" ? AGENT_VERSION : "0.0.0-dev",
    host: () => loading,
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
