/** Test helpers for the file and search tools: a ToolContext over temp directories and a tree builder. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AnyTool, ToolContext, ToolOutcome } from "../../src/tools/define-tool.js";
import { ToolError } from "../../src/tools/define-tool.js";
import { tempDir } from "./temp-dirs.js";

export interface TestToolContext {
  ctx: ToolContext;
  controller: AbortController;
  partial: string[];
  progress: string[];
  /** The working directory (a fresh temp dir, realpath'd). */
  cwd: string;
  sessionDir: string;
  /** Absolute path of a file or directory inside cwd. */
  at(...parts: string[]): string;
  /** Writes files (relative to cwd), creating parent directories. */
  write(files: Record<string, string | Buffer>): void;
  cleanup(): void;
}

let callCounter = 0;

export function makeToolContext(): TestToolContext {
  const cwd = tempDir("file-tools-cwd-");
  const sessionDir = tempDir("file-tools-session-");
  const controller = new AbortController();
  const partial: string[] = [];
  const progress: string[] = [];
  const ctx: ToolContext = {
    cwd,
    toolCallId: `call_${++callCounter}`,
    signal: controller.signal,
    sessionDir,
    onPartialOutput: (chunk) => partial.push(chunk),
    onProgress: (message) => progress.push(message),
    ask: () => Promise.reject(new Error("The tools under this test do not ask anyone.")),
  };
  const at = (...parts: string[]): string => join(cwd, ...parts);
  const write = (files: Record<string, string | Buffer>): void => {
    for (const [rel, content] of Object.entries(files)) {
      const abs = at(rel);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, content);
    }
  };
  const cleanup = (): void => {
    rmSync(cwd, { recursive: true, force: true });
    rmSync(sessionDir, { recursive: true, force: true });
  };
  return { ctx, controller, partial, progress, cwd, sessionDir, at, write, cleanup };
}

/** Validates the arguments with the tool's schema, then runs it. */
export async function runTool(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  return tool.execute(tool.parameters.parse(args), ctx);
}

/** Runs the tool and returns the ToolError it throws (fails the test when it does not throw one). */
export async function runToolError(tool: AnyTool, args: unknown, ctx: ToolContext): Promise<ToolError> {
  try {
    const outcome = await runTool(tool, args, ctx);
    throw new Error(`expected a ToolError, got: ${outcome.content}`);
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
}

/** A context whose signal has already fired. */
export function abortedContext(base: ToolContext): ToolContext {
  const controller = new AbortController();
  controller.abort();
  return { ...base, toolCallId: `call_${++callCounter}`, signal: controller.signal };
}
