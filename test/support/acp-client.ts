/**
 * An ACP client for tests: the ACP library's client side driving the real bin/agent.js --acp over its stdio,
 * recording every session/update and answering the agent's requests with the test's handlers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import {
  client,
  ndJsonStream,
  type AnyMessage,
  type ClientCapabilities,
  type ClientContext,
  type ClientConnection,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type CreateTerminalRequest,
  type ReadTextFileRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
  type WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import { AGENT_BIN } from "./run-agent.js";

export interface AcpClientHandlers {
  /** `signal` fires when the agent withdraws the question (`$/cancel_request`). */
  permission?(request: RequestPermissionRequest, signal: AbortSignal): RequestPermissionResponse | Promise<RequestPermissionResponse>;
  readTextFile?(request: ReadTextFileRequest): string;
  writeTextFile?(request: WriteTextFileRequest): void;
  /** terminal/create: what the command printed and its exit code. */
  terminal?(request: CreateTerminalRequest): { output: string; exitCode: number };
  elicitation?(request: CreateElicitationRequest): CreateElicitationResponse;
}

export interface AcpTestClient {
  agent: ClientContext;
  connection: ClientConnection;
  child: ChildProcess;
  notifications: SessionNotification[];
  permissionRequests: RequestPermissionRequest[];
  incoming: AnyMessage[];
  /** The updates of one session, in arrival order. */
  updates(sessionId: string): SessionUpdate[];
  /** The text of a session's agent message chunks so far. */
  agentText(sessionId: string): string;
  /** Resolves with the first update (already received or to come) that matches. */
  waitForUpdate(predicate: (update: SessionUpdate) => boolean): Promise<SessionUpdate>;
  stderr(): string;
  close(): Promise<void>;
}

export function startAcpClient(options: {
  env: NodeJS.ProcessEnv;
  cwd: string;
  args?: string[];
  capabilities?: ClientCapabilities;
  handlers?: AcpClientHandlers;
  /** A command to run instead of the checkout's bin/agent.js (an installed bin/agent). */
  bin?: string;
}): AcpTestClient {
  const [command, ...prefix] = options.bin ? [options.bin] : [process.execPath, AGENT_BIN];
  const child = spawn(command as string, [...prefix, "--acp", ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const notifications: SessionNotification[] = [];
  const permissionRequests: RequestPermissionRequest[] = [];
  const waiters: (() => void)[] = [];
  const handlers = options.handlers ?? {};
  const terminals = new Map<string, { output: string; exitCode: number }>();
  const app = client({ name: "acp-test-client" })
    .onNotification("session/update", ({ params }) => {
      notifications.push(params);
      for (const waiter of [...waiters]) waiter();
    })
    .onRequest("session/request_permission", async ({ params, signal }) => {
      permissionRequests.push(params);
      if (!handlers.permission) return { outcome: { outcome: "cancelled" } };
      return handlers.permission(params, signal);
    })
    .onRequest("fs/read_text_file", ({ params }) => ({ content: handlers.readTextFile?.(params) ?? "" }))
    .onRequest("fs/write_text_file", ({ params }) => {
      handlers.writeTextFile?.(params);
      return {};
    })
    .onRequest("terminal/create", ({ params }) => {
      const id = `term-${terminals.size + 1}`;
      terminals.set(id, handlers.terminal?.(params) ?? { output: "", exitCode: 0 });
      return { terminalId: id };
    })
    .onRequest("terminal/output", ({ params }) => ({ output: terminals.get(params.terminalId)?.output ?? "", truncated: false }))
    .onRequest("terminal/wait_for_exit", ({ params }) => ({ exitCode: terminals.get(params.terminalId)?.exitCode ?? 0, signal: null }))
    .onRequest("elicitation/create", ({ params }) => handlers.elicitation?.(params) ?? { action: "cancel" })
    .onRequest("terminal/kill", () => ({}))
    .onRequest("terminal/release", () => ({}));
  const stream = ndJsonStream(
    Writable.toWeb(child.stdin as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout as Readable) as unknown as ReadableStream<Uint8Array>,
  );
  // Every message from the agent, in the order it arrived (to check what comes before what).
  const incoming: AnyMessage[] = [];
  const recorded = {
    writable: stream.writable,
    readable: stream.readable.pipeThrough(
      new TransformStream<AnyMessage, AnyMessage>({
        transform: (message, controller) => {
          incoming.push(message);
          controller.enqueue(message);
        },
      }),
    ),
  };
  const connection = app.connect(recorded);
  const updates = (sessionId: string) => notifications.filter((note) => note.sessionId === sessionId).map((note) => note.update);
  return {
    agent: connection.agent,
    connection,
    child,
    notifications,
    permissionRequests,
    incoming,
    updates,
    agentText: (sessionId) =>
      updates(sessionId)
        .map((update) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? update.content.text : ""))
        .join(""),
    waitForUpdate: (predicate) =>
      new Promise((resolve) => {
        const check = () => {
          const found = notifications.find((note) => predicate(note.update));
          if (!found) return false;
          waiters.splice(waiters.indexOf(check), 1);
          resolve(found.update);
          return true;
        };
        waiters.push(check);
        check();
      }),
    stderr: () => stderr,
    close: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      connection.close();
      child.stdin?.end();
      if (child.exitCode === null && child.signalCode === null) await exited;
    },
  };
}

/** Picks the permission option with this id. */
export const choose = (optionId: string) => (): RequestPermissionResponse => ({ outcome: { outcome: "selected", optionId } });
