/**
 * What a tmux test of the TUI runs in: one tmux server for the file, and per test a scripted server (model
 * "demo"), an AGENT_HOME and a working folder, and the pane the agent runs in, closed after the test.
 */
import { rmSync, type RmOptions } from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { tempDir } from "./engine-harness.js";
import { AGENT_BIN, agentEnv } from "./run-agent.js";
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from "./scripted-server.js";
import { HAS_TMUX, shellQuote, TmuxServer, type TmuxPane } from "./tmux.js";

/** The prompt is empty and nothing is running (the footer says "esc to interrupt" while busy). */
export const idle = (screen: string): boolean => screen.includes("› Ask anything") && !screen.includes("esc to interrupt");

/** Types `prompt`, waits until the screen shows it, and presses Enter. */
export async function sendPrompt(pane: TmuxPane, prompt: string): Promise<void> {
  await pane.type(prompt);
  await pane.waitForText(prompt);
  await pane.sendKeys("Enter");
}

/** The command line that starts the built agent. */
export const AGENT_COMMAND = `${shellQuote(process.execPath)} ${shellQuote(AGENT_BIN)}`;

export interface TmuxAgentOptions {
  /** Names the temp folders `<prefix>-home-…` and `<prefix>-cwd-…`. */
  prefix: string;
  /** The scripted server's options; its model is "demo". */
  server?: ScriptedServerOptions;
  historyLimit?: number;
  /** How hard to try removing the folders (the agent may still be writing as its pane closes). */
  removeRetries?: Pick<RmOptions, "maxRetries" | "retryDelay">;
}

export interface TmuxAgent {
  readonly tmux: TmuxServer;
  readonly server: ScriptedServer;
  readonly home: string;
  readonly cwd: string;
  /** Runs `command` in a new pane with this test's agent environment (TERM=tmux-256color); the last pane opened is closed after the test. */
  open(command: string, size?: { width?: number; height?: number }): Promise<TmuxPane>;
  /** `open`, then waits (up to 20 s) for the agent's first idle prompt. */
  launch(command: string): Promise<TmuxPane>;
}

/** Registers the hooks at the file's top level; the tmux server is started only where tmux exists. */
export function useTmuxAgent(options: TmuxAgentOptions): TmuxAgent {
  let tmux: TmuxServer | undefined;
  let server: ScriptedServer | undefined;
  let home = "";
  let cwd = "";
  let pane: TmuxPane | undefined;
  beforeAll(async () => {
    if (HAS_TMUX) tmux = await TmuxServer.start(options.historyLimit === undefined ? {} : { historyLimit: options.historyLimit });
  });
  afterAll(async () => {
    await tmux?.kill();
  });
  beforeEach(async () => {
    server = await startScriptedServer({ model: "demo", ...options.server });
    home = tempDir(`${options.prefix}-home-`);
    cwd = tempDir(`${options.prefix}-cwd-`);
  });
  afterEach(async () => {
    await pane?.close();
    pane = undefined;
    await server?.close();
    for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true, ...(options.removeRetries ?? { maxRetries: 3 }) });
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useTmuxAgent: no ${what} outside a test`);
    return value;
  };
  const open = async (command: string, size: { width?: number; height?: number } = {}): Promise<TmuxPane> => {
    const env = agentEnv({ home, baseUrl: need(server, "scripted server").baseUrl, model: "demo" });
    pane = await need(tmux, "tmux server").open(command, { cwd, env: { ...env, TERM: "tmux-256color" }, ...size });
    return pane;
  };
  return {
    get tmux() {
      return need(tmux, "tmux server");
    },
    get server() {
      return need(server, "scripted server");
    },
    get home() {
      return home;
    },
    get cwd() {
      return cwd;
    },
    open,
    launch: async (command) => {
      const opened = await open(command);
      await opened.waitFor(idle, { timeoutMs: 20_000, what: "the first idle prompt" });
      return opened;
    },
  };
}
