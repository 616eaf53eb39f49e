/**
 * The stdio transport for local MCP servers: the server is started with execa as the leader of its own
 * process group (`detached: true`), so ending it ends everything it started too (an `npx` wrapper and the
 * server under it, a helper the server forked). Message framing is the SDK's (ReadBuffer, serializeMessage);
 * this only owns the process. Used instead of the SDK's StdioClientTransport, which signals the child alone.
 */
import type { ResultPromise } from "execa";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { mcpSdk } from "./mcp-sdk.js";

/** How long a server may take to exit after SIGTERM before its group gets SIGKILL. */
const KILL_AFTER_MS = 2_000;
/** How long the agent waits for a server to end at SIGTERM before it stops waiting for it (it does not wait for graceful shutdowns). */
const EXIT_GRACE_MS = 100;

/**
 * Process groups still running, ended when the agent exits however it exits (a group outlives us otherwise).
 * A group told to stop already (SIGTERM from close()) and still there at exit gets SIGKILL: the agent does
 * not wait for a server's graceful shutdown.
 */
const liveGroups = new Map<number, "running" | "stopping">();
let exitHookInstalled = false;

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is gone already.
  }
}

export interface StdioServerParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  onStderr(text: string): void;
}

export class StdioGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ResultPromise;
  private readBuffer?: ReadBuffer;
  private serialize?: (message: JSONRPCMessage) => string;
  private groupId?: number;
  /** close() came before the process had spawned: it is ended as soon as it has. */
  private closeRequested = false;
  private closedNotified = false;

  constructor(private readonly params: StdioServerParams) {}

  get pid(): number | undefined {
    return this.groupId;
  }

  async start(): Promise<void> {
    const [{ execa }, { ReadBuffer, serializeMessage }] = await Promise.all([import("execa"), mcpSdk.stdio()]);
    this.readBuffer = new ReadBuffer();
    this.serialize = serializeMessage;
    const { params } = this;
    const child = execa(params.command, params.args, {
      cwd: params.cwd,
      env: params.env,
      extendEnv: false,
      detached: true,
      windowsHide: true,
      buffer: false,
      reject: false,
      // The group's lifetime is ours (close(), and the exit hook below); execa's cleanup skips detached children.
      cleanup: false,
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.catch(() => undefined);
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", reject);
    });
    this.child = child;
    this.groupId = child.pid;
    if (this.groupId !== undefined) {
      liveGroups.set(this.groupId, "running");
      if (!exitHookInstalled) {
        exitHookInstalled = true;
        process.once("exit", () => {
          for (const [group, state] of liveGroups) signalGroup(group, state === "stopping" ? "SIGKILL" : "SIGTERM");
        });
      }
    }
    child.on("error", (error) => this.onerror?.(error));
    child.on("close", () => {
      if (this.groupId !== undefined) liveGroups.delete(this.groupId);
      this.child = undefined;
      this.closed();
    });
    child.stdin?.on("error", (error) => this.onerror?.(error));
    child.stdout?.on("data", (chunk: Buffer) => {
      this.readBuffer?.append(chunk);
      this.drain();
    });
    child.stderr?.on("data", (chunk: Buffer) => params.onStderr(chunk.toString("utf8")));
    if (this.closeRequested) {
      void this.close();
      throw new Error("The MCP server was stopped while it started.");
    }
  }

  private drain(): void {
    for (;;) {
      try {
        const message = this.readBuffer?.readMessage();
        if (!message) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  /** Tells the client once that the transport is closed. */
  private closed(): void {
    if (this.closedNotified) return;
    this.closedNotified = true;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !this.serialize) return Promise.reject(new Error("The MCP server is not running."));
    const line = this.serialize(message);
    return new Promise((resolve) => {
      if (stdin.write(line)) resolve();
      else stdin.once("drain", () => resolve());
    });
  }

  /**
   * Closes stdin and ends the server's whole process group: SIGTERM at once, SIGKILL if it lingers. A server
   * that ends at SIGTERM (in milliseconds, as most do) is waited for, so it is reaped; one that takes longer
   * than EXIT_GRACE_MS stops holding the event loop (a `-p` run exits as soon as its own work is done), and
   * its group gets SIGKILL after KILL_AFTER_MS or when the agent exits, whichever comes first.
   */
  async close(): Promise<void> {
    this.closeRequested = true;
    const child = this.child;
    const group = this.groupId;
    this.readBuffer?.clear();
    if (!child || group === undefined) return;
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    child.stdin?.end();
    liveGroups.set(group, "stopping");
    signalGroup(group, "SIGTERM");
    let lingered = await lingers(closed, EXIT_GRACE_MS, false);
    if (lingered) {
      child.unref();
      for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as { unref?: () => void } | null)?.unref?.();
      // Closed as far as the client is concerned: its requests still waiting (and their timers) end now.
      this.closed();
      lingered = await lingers(closed, KILL_AFTER_MS - EXIT_GRACE_MS, true);
    }
    // The leader may be gone while others in its group are not: the group gets SIGKILL either way once it lingers.
    if (lingered) signalGroup(group, "SIGKILL");
    liveGroups.delete(group);
  }
}

/** Whether `closed` is still pending after `ms` (an unref'd timer does not keep the agent alive for it). */
async function lingers(closed: Promise<void>, ms: number, unref: boolean): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const lingered = await Promise.race([
    closed.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), ms);
      if (unref) timer.unref();
    }),
  ]);
  clearTimeout(timer);
  return lingered;
}
