/** What an end-to-end test of the real bin/agent runs in: a scripted server, an AGENT_HOME and a working folder, fresh for each test. */
import { rmSync } from "node:fs";
import { afterEach, beforeEach } from "vitest";
import { tempDir } from "./engine-harness.js";
import { agentEnv } from "./run-agent.js";
import {
  startScriptedServer,
  text,
  type CompletionRequest,
  type ScriptedResponse,
  type ScriptedServer,
  type ScriptedServerOptions,
} from "./scripted-server.js";

export interface E2eWorkspace {
  readonly server: ScriptedServer;
  readonly home: string;
  readonly cwd: string;
  /** bin/agent's environment: this test's AGENT_HOME and the server's address, plus `extra`. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  /** Closes this test's server and starts another with `options` in its place (closed after the test like the first). */
  replaceServer(options: ScriptedServerOptions): Promise<ScriptedServer>;
}

export interface E2eWorkspaceOptions {
  /** Names the temp folders `<prefix>-home-…` and `<prefix>-cwd-…` (default "e2e"), so a leftover one says which file made it. */
  prefix?: string;
  server?: ScriptedServerOptions;
  /** Remove both folders after each test (for files whose tests leave large or many files behind). */
  removeDirs?: boolean;
}

/** Registers the beforeEach/afterEach pair; the returned object's fields are the current test's. */
export function useE2eWorkspace(options: E2eWorkspaceOptions = {}): E2eWorkspace {
  const prefix = options.prefix ?? "e2e";
  let server: ScriptedServer | undefined;
  let home = "";
  let cwd = "";
  beforeEach(async () => {
    server = await startScriptedServer(options.server);
    home = tempDir(`${prefix}-home-`);
    cwd = tempDir(`${prefix}-cwd-`);
  });
  afterEach(async () => {
    await server?.close();
    if (options.removeDirs) for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
  });
  const current = (): ScriptedServer => {
    if (!server) throw new Error("useE2eWorkspace: the server exists only inside a test");
    return server;
  };
  return {
    get server() {
      return current();
    },
    get home() {
      return home;
    },
    get cwd() {
      return cwd;
    },
    env: (extra = {}) => agentEnv({ home, baseUrl: current().baseUrl, extra }),
    replaceServer: async (serverOptions) => {
      await current().close();
      server = await startScriptedServer(serverOptions);
      return server;
    },
  };
}

/** A scripted answer, or one built from the request it answers. */
export type Scripted = ScriptedResponse | ((request: CompletionRequest) => ScriptedResponse);

export interface AgentQueues {
  /** Answers for the main agent's requests, in order. */
  readonly main: Scripted[];
  /** Answers for the subagents' requests, in order. */
  readonly child: Scripted[];
  /** The server's responder: the next answer from the queue the request belongs to, or a placeholder once it is empty. */
  responder(request: CompletionRequest): ScriptedResponse;
}

/** Two scripts for a run with subagents, told apart by the x-initiator header; both are emptied before each test. */
export function useAgentQueues(): AgentQueues {
  const main: Scripted[] = [];
  const child: Scripted[] = [];
  beforeEach(() => {
    main.length = 0;
    child.length = 0;
  });
  return {
    main,
    child,
    responder: (request) => {
      const item = (request.headers["x-initiator"] === "sub-agent" ? child : main).shift() ?? text("(nothing scripted)");
      return typeof item === "function" ? item(request) : item;
    },
  };
}
