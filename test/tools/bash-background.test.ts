import { afterEach, describe, expect, it } from "vitest";
import type { ShellInfo } from "../../src/tools/bash/index.js";
import { findTool, isProcessAlive, nextCall, printedPid, runTool, useShellTools, waitFor } from "../support/bash-context.js";

const shells = useShellTools();
const detachedPids: number[] = [];

afterEach(() => {
  for (const pid of detachedPids.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  shells.t.cleanup();
});

const tool = (name: string) => findTool(shells.tools, name);

/**
 * What a backgrounded shell prints, read until `done` holds for it: a command that outlives initial_wait may
 * not have printed anything by then on a loaded machine, so its output is waited for, not assumed.
 */
async function readUntil(shellId: string, sofar: string, done: (output: string) => boolean): Promise<string> {
  let output = sofar;
  while (!done(output)) output += (await runTool(tool("read_bash"), { shellId, delay: 1 }, nextCall(shells.t))).content.replace(/<still running>$/, "");
  return output;
}

describe("sync commands that outlive initial_wait", () => {
  it("keep running in the background; read_bash returns the later output and the exit", async () => {
    // The command only prints "done" after the test has created the file, so the order does not depend on timing.
    const command = "echo started; while [ ! -e go ]; do sleep 0.05; done; echo done";
    const first = await runTool(tool("bash"), { command, description: "Wait for go", initial_wait: 1 }, shells.t.ctx);
    const stillRunning = "<command still running after 1s; shellId: 1. Use read_bash to read more output, stop_bash to stop it>";
    expect(first.content.endsWith(stillRunning)).toBe(true);
    expect(first.telemetry?.backgrounded).toBe(true);
    expect(await readUntil("1", first.content.slice(0, -stillRunning.length), (output) => output.includes("started"))).toMatch(
      /^started\n(\(no new output\)\n)*$/,
    );

    const listed = await runTool(tool("list_bash"), {}, nextCall(shells.t));
    expect(listed.content).toMatch(/^Shells:\n- 1: running \(sync, pid \d+, 0 bytes unread\) echo started; while/);
    expect(shells.manager.backgroundShells()).toEqual([{ shellId: "1", description: "Wait for go" }]);

    const nothingYet = await runTool(tool("read_bash"), { shellId: "1", delay: 0 }, nextCall(shells.t));
    expect(nothingYet.content).toBe("(no new output)\n<still running>");

    await runTool(tool("bash"), { command: "touch go", description: "Release" }, nextCall(shells.t));
    const later = await runTool(tool("read_bash"), { shellId: "1", delay: 20 }, nextCall(shells.t));
    expect(later.content).toBe("done\n<exited with exit code 0>");
    expect(shells.manager.backgroundShells()).toEqual([]);

    // Once its exit has been reported the shell is forgotten, with a helpful message.
    await expect(runTool(tool("read_bash"), { shellId: "1", delay: 0 }, nextCall(shells.t))).rejects.toThrow(/already exited <exited with exit code 0>/);
    expect((await runTool(tool("list_bash"), {}, nextCall(shells.t))).content).toBe("No shells.");
  });

  it("stop_bash kills a backgrounded command and returns its unread output", async () => {
    const command = 'echo "pid:$$"; sleep 100 & echo "child:$!"; wait';
    const first = await runTool(tool("bash"), { command, description: "Sleep", initial_wait: 1, shellId: "sleeper" }, shells.t.ctx);
    expect(first.content).toContain("shellId: sleeper");
    const printed = await readUntil("sleeper", first.content, (output) => /child:\d+\n/.test(output));
    const leader = printedPid(printed, "pid");
    const child = printedPid(printed, "child");
    expect(leader).toBeTypeOf("number");
    expect(child).toBeTypeOf("number");

    const stopped = await runTool(tool("stop_bash"), { shellId: "sleeper" }, nextCall(shells.t));
    expect(stopped.content).toMatch(/^Stopped shell sleeper \(pid \d+\)\.\n<killed by signal SIGTERM>$/);
    await waitFor(() => !isProcessAlive(leader as number) && !isProcessAlive(child as number), 10_000, "exit");
    expect(shells.manager.list()).toEqual([]);
  });

  it("refuses to reuse the shellId of a running shell", async () => {
    const args = { command: "sleep 100", description: "Sleep", mode: "async", shellId: "s" };
    await runTool(tool("bash"), args, shells.t.ctx);
    await expect(runTool(tool("bash"), args, nextCall(shells.t))).rejects.toThrow(/still running/);
  });
});

describe("async mode", () => {
  it("returns at once with the shell id; read_bash reads the output and the exit status", async () => {
    const command = "echo hello; while [ ! -e go ]; do sleep 0.05; done; echo world; exit 4";
    const started = await runTool(tool("bash"), { command, description: "Async", mode: "async" }, shells.t.ctx);
    expect(started.content).toMatch(/^Started shell 1 \(pid \d+, async\)\. Use read_bash with shellId "1"/);
    expect(started.content).not.toContain("world");

    await runTool(tool("bash"), { command: "touch go", description: "Release" }, nextCall(shells.t));
    const read = await runTool(tool("read_bash"), { shellId: "1", delay: 20 }, nextCall(shells.t));
    const all = started.content + read.content;
    expect(all.indexOf("hello")).toBeGreaterThan(0);
    expect(all.indexOf("world")).toBeGreaterThan(all.indexOf("hello"));
    expect(read.content.endsWith("world\n<exited with exit code 4>")).toBe(true);
    expect(read.telemetry?.exitCode).toBe(4);
  });

  it("notifies when a backgrounded shell exits before anyone read its status", async () => {
    const exits: ShellInfo[] = [];
    shells.manager.onBackgroundExit((info) => exits.push(info));
    const command = "while [ ! -e go ]; do sleep 0.05; done; exit 2";
    await runTool(tool("bash"), { command, description: "Async", mode: "async" }, shells.t.ctx);
    await runTool(tool("bash"), { command: "touch go", description: "Release" }, nextCall(shells.t));
    await waitFor(() => exits.length > 0, 10_000, "exit notification");
    expect(exits[0]).toMatchObject({ shellId: "1", status: { state: "exited", exitCode: 2 } });
  });

  it("detach keeps the process alive through dispose, and its output is read from the log file", async () => {
    const command = 'echo "pid:$$"; while [ ! -e go ]; do sleep 0.05; done; echo released; sleep 100';
    const started = await runTool(tool("bash"), { command, description: "Detached", mode: "async", detach: true, shellId: "d" }, shells.t.ctx);
    expect(started.content).toContain("detached");
    const pid = shells.manager.get("d")?.pid as number;
    detachedPids.push(pid);
    await runTool(tool("bash"), { command: "touch go", description: "Release" }, nextCall(shells.t));
    let seen = started.content;
    await waitFor(() => {
      seen += shells.manager.get("d")?.takeUnread().text ?? "";
      return seen.includes("released");
    });
    expect(seen).toContain(`pid:${pid}`);
    await shells.manager.dispose();
    expect(isProcessAlive(pid)).toBe(true);
  });
});

describe("shell ids", () => {
  it("read_bash and stop_bash reject unknown ids, listing the known ones", async () => {
    await runTool(tool("bash"), { command: "sleep 100", description: "Sleep", mode: "async", shellId: "web" }, shells.t.ctx);
    await expect(runTool(tool("read_bash"), { shellId: "nope", delay: 0 }, nextCall(shells.t))).rejects.toThrow('Unknown shellId "nope". Known shells: web.');
    await expect(runTool(tool("stop_bash"), { shellId: "nope" }, nextCall(shells.t))).rejects.toThrow(/Known shells: web/);
  });

  it("says there are no shells when none exist", async () => {
    await expect(runTool(tool("read_bash"), { shellId: "1", delay: 0 }, shells.t.ctx)).rejects.toThrow(/There are no shells/);
    expect((await runTool(tool("list_bash"), {}, shells.t.ctx)).content).toBe("No shells.");
  });
});

describe("dispose", () => {
  it("also kills children a finished sync command left running in the background", async () => {
    const command = 'sleep 100 & echo "child:$!"';
    const result = await runTool(tool("bash"), { command, description: "Leave a child", initial_wait: 30 }, shells.t.ctx);
    expect(result.content).toMatch(/^child:\d+\n<exited with exit code 0>$/);
    const child = printedPid(result.content, "child") as number;
    expect(isProcessAlive(child)).toBe(true);
    expect(shells.manager.list()).toEqual([]);
    await shells.manager.dispose();
    await waitFor(() => !isProcessAlive(child), 10_000, "the left-behind child to die");
  });

  it("kills the process groups of background shells", async () => {
    const command = 'sleep 100 & echo "child:$!"; echo "pid:$$"; wait';
    const started = await runTool(tool("bash"), { command, description: "Sleepers", mode: "async" }, shells.t.ctx);
    let output = started.content;
    await waitFor(() => {
      output += shells.manager.get("1")?.takeUnread().text ?? "";
      return output.includes("pid:");
    });
    const pids = [printedPid(output, "child"), printedPid(output, "pid")] as number[];
    expect(pids.every((pid) => isProcessAlive(pid))).toBe(true);
    expect(shells.manager.backgroundShells()).toHaveLength(1);

    await shells.manager.dispose();
    await waitFor(() => pids.every((pid) => !isProcessAlive(pid)), 10_000, "background shell to die");
    await expect(runTool(tool("bash"), { command: "true", description: "x" }, nextCall(shells.t))).rejects.toThrow(/shutting down/);
  });
});
