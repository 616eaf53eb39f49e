/** What a test of `agent --acp` runs in: an e2e workspace whose cwd is a git root, and ACP clients closed after each test. */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PROTOCOL_VERSION, type ClientCapabilities } from "@agentclientprotocol/sdk";
import { afterEach, beforeEach } from "vitest";
import { startAcpClient, type AcpClientHandlers, type AcpTestClient } from "./acp-client.js";
import { useE2eWorkspace, type E2eWorkspace } from "./e2e-workspace.js";

export interface AcpClientOptions {
  handlers?: AcpClientHandlers;
  /** What the client says it can do in `initialize`. */
  capabilities?: ClientCapabilities;
  /** More environment for bin/agent. */
  extra?: Record<string, string>;
}

export interface AcpWorkspace {
  readonly ws: E2eWorkspace;
  /** Spawns `agent --acp` with a client on its stdio, not yet initialized. */
  start(options?: AcpClientOptions): AcpTestClient;
  /** Spawns it and completes `initialize`. */
  connect(options?: AcpClientOptions): Promise<AcpTestClient>;
}

export function useAcpWorkspace(): AcpWorkspace {
  const ws = useE2eWorkspace({ prefix: "acp" });
  const clients: AcpTestClient[] = [];
  beforeEach(() => {
    mkdirSync(path.join(ws.cwd, ".git"));
  });
  // Registered after the workspace's: vitest runs after-hooks as a stack, so the agents end before their server closes.
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  const start = ({ handlers = {}, capabilities = {}, extra = {} }: AcpClientOptions = {}): AcpTestClient => {
    const client = startAcpClient({ env: ws.env(extra), cwd: ws.cwd, handlers, capabilities });
    clients.push(client);
    return client;
  };
  return {
    ws,
    start,
    connect: async (options = {}) => {
      const client = start(options);
      await client.agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: options.capabilities ?? {} });
      return client;
    },
  };
}
