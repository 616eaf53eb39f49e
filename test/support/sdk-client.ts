/**
 * The real Copilot SDK (@github/copilot-sdk) pointed at the real built bin/agent.js: a hermetic
 * environment (AGENT_HOME and HOME in a temp dir, no endpoint in the environment: each session brings its
 * BYOK provider), and helpers to wait on session events instead of sleeping.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  CopilotClient,
  RuntimeConnection,
  type CopilotRequestHandler,
  type CopilotSession,
  type PermissionRequest,
  type PermissionRequestResult,
  type SessionEvent,
} from "@github/copilot-sdk";
import { Trace, type MessageConnection } from "vscode-jsonrpc";
import { afterEach, beforeEach } from "vitest";
import { AGENT_BIN } from "./run-agent.js";
import { startScriptedServer, type ScriptedServer } from "./scripted-server.js";

export interface SdkWorld {
  home: string;
  cwd: string;
  env: Record<string, string>;
  /**
   * `path`: the program to run (default the checkout's bin/agent.js; a path without `.js` is run as a command).
   * `requestHandler`: the client carries the model requests (the SDK's llmInference transport).
   */
  client(options?: { args?: string[]; tcp?: boolean; path?: string; requestHandler?: CopilotRequestHandler }): CopilotClient;
  /** `agent --headless --port 0` on its own, as a long-running server (killed at cleanup); resolves with its port. */
  tcpServer(token: string): Promise<{ port: number; child: ChildProcess }>;
  /** A client of a server already running (several may share it). */
  connect(port: number, token: string, options?: { requestHandler?: CopilotRequestHandler }): CopilotClient;
  cleanup(): void;
}

export function sdkWorld(extraEnv: Record<string, string> = {}): SdkWorld {
  const root = mkdtempSync(path.join(os.tmpdir(), "agent-sdk-"));
  const home = path.join(root, "home");
  const cwd = path.join(root, "work");
  for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: home, AGENT_HOME: home, LANG: "C.UTF-8", ...extraEnv };
  const clients: CopilotClient[] = [];
  const children: ChildProcess[] = [];
  return {
    home,
    cwd,
    env,
    client: ({ args = [], tcp = false, path: bin = AGENT_BIN, requestHandler } = {}) => {
      const connection = tcp ? RuntimeConnection.forTcp({ path: bin, args, env }) : RuntimeConnection.forStdio({ path: bin, args, env });
      const client = new CopilotClient({ connection, workingDirectory: cwd, ...(requestHandler ? { requestHandler } : {}) });
      clients.push(client);
      return client;
    },
    tcpServer: async (token) => {
      const child = spawn(process.execPath, [AGENT_BIN, "--headless", "--no-auto-update", "--port", "0"], {
        cwd,
        env: { ...env, COPILOT_CONNECTION_TOKEN: token },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let out = "";
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          const match = /listening on port (\d+)/i.exec(out);
          if (match) resolve(Number(match[1]));
        });
        child.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
      });
      return { port, child };
    },
    connect: (port, token, { requestHandler } = {}) => {
      const client = new CopilotClient({
        connection: RuntimeConnection.forUri(`127.0.0.1:${port}`, { connectionToken: token }),
        ...(requestHandler ? { requestHandler } : {}),
      });
      clients.push(client);
      return client;
    },
    cleanup: () => {
      for (const client of clients) void client.forceStop().catch(() => undefined);
      for (const child of children) child.kill("SIGKILL");
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A BYOK provider for the scripted server. */
export function scriptedProvider(baseUrl: string) {
  return { type: "openai" as const, baseUrl, apiKey: "test-key" };
}

/** Resolves with the first event of this type (and matching `where`) the session emits from now on. */
export function nextEvent<T extends SessionEvent["type"]>(
  session: CopilotSession,
  type: T,
  where: (event: Extract<SessionEvent, { type: T }>) => boolean = () => true,
): Promise<Extract<SessionEvent, { type: T }>> {
  return new Promise((resolve) => {
    const off = session.on((event) => {
      if (event.type === type && where(event as Extract<SessionEvent, { type: T }>)) {
        off();
        resolve(event as Extract<SessionEvent, { type: T }>);
      }
    });
  });
}

/** A permission handler that keeps every request it is asked and gives each the same answer (approve once unless told). */
export function recordingHandler(answer: PermissionRequestResult = { kind: "approve-once" }): {
  asked: PermissionRequest[];
  onPermissionRequest: (request: PermissionRequest) => PermissionRequestResult;
} {
  const asked: PermissionRequest[] = [];
  return {
    asked,
    onPermissionRequest: (request) => {
      asked.push(request);
      return answer;
    },
  };
}

/** Every event the session emits from now on, in order. */
export function recordEvents(session: CopilotSession): SessionEvent[] {
  const events: SessionEvent[] = [];
  session.on((event) => void events.push(event));
  return events;
}

/**
 * A scripted server and an SDK world (its working directory made) for each test, torn down after it.
 * `server` and `world` are read at test time: each test gets its own.
 */
export function useSdkWorld(extraEnv: Record<string, string> = {}): {
  readonly server: ScriptedServer;
  readonly world: SdkWorld;
  provider(): ReturnType<typeof scriptedProvider>;
} {
  let server: ScriptedServer | undefined;
  let world: SdkWorld | undefined;
  beforeEach(async () => {
    server = await startScriptedServer();
    world = sdkWorld(extraEnv);
    mkdirSync(world.cwd, { recursive: true });
  });
  afterEach(async () => {
    world?.cleanup();
    await server?.close();
  });
  const need = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useSdkWorld: read inside a test");
    return value;
  };
  return {
    get server() {
      return need(server);
    },
    get world() {
      return need(world);
    },
    provider: () => scriptedProvider(need(server).baseUrl),
  };
}

/** Resolves when the client receives `$/cancelRequest` (read from its connection's trace: the SDK exposes no hook for it). */
export async function cancelReceived(client: CopilotClient): Promise<void> {
  await client.start();
  const { connection } = client as unknown as { connection: MessageConnection };
  return new Promise((resolve) => {
    void connection.trace(Trace.Messages, {
      log: (message: string) => {
        if (message.includes("$/cancelRequest")) resolve();
      },
    });
  });
}

/** The test MCP server (test/support/mcp-test-server.ts) as an SDK session's `mcpServers` entry. */
export function miniMcpServer() {
  return {
    type: "local" as const,
    command: process.execPath,
    args: ["--import", "tsx", path.resolve("test/support/mcp-test-server.ts"), "--stdio"],
    workingDirectory: path.resolve("."),
    tools: ["*"],
  };
}
