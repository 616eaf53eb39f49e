/**
 * Test helpers for the shell tools: the shared ToolContext helpers from tool-context.ts, plus process
 * liveness checks and bounded polling.
 */
import { readdirSync, readFileSync } from "node:fs";
import { afterEach, beforeEach } from "vitest";
import { createShellTools, ShellManager } from "../../src/tools/bash/index.js";
import type { AnyTool, ToolContext } from "../../src/tools/define-tool.js";
import { makeToolContext, runTool, type TestToolContext } from "./tool-context.js";

export { runTool };
export type BashTestContext = TestToolContext;
export const makeBashContext = makeToolContext;

let callCounter = 0;

/** The same context with a fresh toolCallId (and optionally another AbortController). */
export function nextCall(base: BashTestContext, controller = base.controller): ToolContext {
  return { ...base.ctx, toolCallId: `call_shell_${++callCounter}`, signal: controller.signal };
}

export function findTool(tools: AnyTool[], name: string): AnyTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

/**
 * Whether `pid` is a live process. A zombie counts as dead: in some sandboxes PID 1 never reaps orphans, so
 * signal 0 still succeeds on a process that has long exited.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return process.platform !== "linux";
  }
}

/** Pids of live processes in process group `pgid` (Linux /proc). */
export function livePidsInGroup(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") pids.push(Number(entry));
    } catch {
      // The process exited while we looked.
    }
  }
  return pids;
}

/** Polls `condition` every 25 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 10_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Extracts `name:<digits>` pids printed by a test command. */
export function printedPid(output: string, name: string): number | undefined {
  const match = new RegExp(`${name}:(\\d+)`).exec(output);
  return match ? Number(match[1]) : undefined;
}

/** Registers beforeEach/afterEach that give each test a fresh ShellManager, its tools and a context. */
export function useShellTools(): { manager: ShellManager; tools: AnyTool[]; t: BashTestContext } {
  const state = {} as { manager: ShellManager; tools: AnyTool[]; t: BashTestContext };
  beforeEach(() => {
    state.manager = new ShellManager();
    state.tools = createShellTools(state.manager);
    state.t = makeBashContext();
  });
  afterEach(async () => {
    await state.manager.dispose();
    state.t.cleanup();
  });
  return state;
}
