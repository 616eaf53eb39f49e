/** The file tools and bash with other backends (a client's buffers and terminal): the I/O moves, the tools stay. */
import { existsSync, readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandRequest, FileBackend } from "../../src/tools/backends.js";
import { createBashTool, ShellManager } from "../../src/tools/bash/index.js";
import { createTool } from "../../src/tools/create.js";
import { editTool } from "../../src/tools/edit.js";
import { viewTool } from "../../src/tools/view.js";
import { makeToolContext, runTool, type TestToolContext } from "../support/tool-context.js";

/** Buffers keyed by path: what an editor would hold, unsaved. */
function bufferBackend(buffers: Map<string, string>): FileBackend {
  return {
    readTextFile: async (path) => {
      const text = buffers.get(path);
      if (text === undefined) throw new Error(`no buffer for ${path}`);
      return text;
    },
    writeTextFile: async (path, content) => void buffers.set(path, content),
  };
}

describe("tool backends", () => {
  let t: TestToolContext;
  beforeEach(() => (t = makeToolContext()));
  afterEach(() => t.cleanup());

  it("view reads through the file backend (an unsaved buffer wins over the disk)", async () => {
    t.write({ "a.txt": "on disk\n" });
    const buffers = new Map([[t.at("a.txt"), "in the editor\r\nsecond line\n"]]);
    const outcome = await runTool(viewTool, { path: t.at("a.txt") }, { ...t.ctx, files: bufferBackend(buffers) });
    expect(outcome.content).toBe("1. in the editor\n2. second line");
  });

  it("edit reads and writes through the file backend; the disk is untouched", async () => {
    t.write({ "a.txt": "alpha beta\n" });
    const buffers = new Map([[t.at("a.txt"), "alpha beta gamma\n"]]);
    const outcome = await runTool(editTool, { path: t.at("a.txt"), old_str: "gamma", new_str: "delta" }, { ...t.ctx, files: bufferBackend(buffers) });
    expect(outcome.success).not.toBe(false);
    expect(buffers.get(t.at("a.txt"))).toBe("alpha beta delta\n");
    expect(readFileSync(t.at("a.txt"), "utf8")).toBe("alpha beta\n");
  });

  it("create writes through the file backend", async () => {
    const buffers = new Map<string, string>();
    await runTool(createTool, { path: t.at("new.txt"), file_text: "hello\n" }, { ...t.ctx, files: bufferBackend(buffers) });
    expect(buffers.get(t.at("new.txt"))).toBe("hello\n");
    expect(existsSync(t.at("new.txt"))).toBe(false);
  });

  it("a foreground bash command runs on the command backend; its output and exit status reach the model", async () => {
    const runs: CommandRequest[] = [];
    const commands = {
      run: async (request: CommandRequest) => {
        runs.push(request);
        return { output: "from the client\n", truncated: false, exitCode: 3, signal: null, timedOut: false, interrupted: false };
      },
    };
    const bash = createBashTool(new ShellManager());
    const outcome = await runTool(bash, { command: "echo hi", description: "say hi", initial_wait: 5 }, { ...t.ctx, commands });
    expect(runs).toMatchObject([{ command: "echo hi", cwd: t.cwd, timeoutMs: 5000 }]);
    expect(outcome.content).toBe("from the client\n<exited with exit code 3>");
  });
});
