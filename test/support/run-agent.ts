/** Runs the real bin/agent as a child process with a hermetic environment (temp HOME and AGENT_HOME). */
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { wireEnv } from "./test-wire.js";

export const AGENT_BIN = fileURLToPath(new URL("../../bin/agent.js", import.meta.url));

export interface AgentRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface AgentEnvOptions {
  home: string;
  baseUrl?: string;
  model?: string;
  extra?: Record<string, string>;
}

/**
 * XDG_CACHE_HOME for the agents tests run: V8's code cache of the vendor bundle (src/util/code-cache.ts) is
 * kept outside the homes tests delete, so an agent writing it as it exits never races their removal, and one
 * cache per build serves every test file (written by rename, so concurrent runs are safe).
 */
export function testCacheHome(): string {
  return path.join(os.tmpdir(), `agent-test-cache-${process.getuid?.() ?? "user"}`);
}

/** Only what the agent needs: no OPENAI_* or COPILOT_* leaks in from the developer's shell. The wire is AGENT_TEST_WIRE's. */
export function agentEnv({ home, baseUrl, model = "scripted-model", extra = {} }: AgentEnvOptions): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    AGENT_HOME: home,
    LANG: "C.UTF-8",
    XDG_CACHE_HOME: testCacheHome(),
    ...(baseUrl ? { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test-key", AGENT_MODEL: model, ...wireEnv() } : {}),
    ...extra,
  };
}

export interface StartAgentOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  input?: string;
  /** Run as another user (see unprivileged.ts): only a test running as root can. */
  user?: { uid: number; gid: number };
}

export function startAgent(args: string[], options: StartAgentOptions): ChildProcess {
  const child = spawn(process.execPath, [AGENT_BIN, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    ...options.user,
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  return child;
}

export function collect(child: ChildProcess): Promise<AgentRun> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
}

export function runAgent(args: string[], options: StartAgentOptions): Promise<AgentRun> {
  return collect(startAgent(args, options));
}
