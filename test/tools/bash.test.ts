import { describe, expect, it } from "vitest";
import { z } from "zod";
import { INTERRUPTED_TOOL_TEXT, ToolError } from "../../src/tools/define-tool.js";
import { findTool, nextCall, runTool, useShellTools } from "../support/bash-context.js";

const shells = useShellTools();

const bash = () => findTool(shells.tools, "bash");

describe("bash (sync)", () => {
  it("runs a command and ends with the exit code line", async () => {
    const result = await runTool(bash(), { command: "echo hello", description: "Say hello" }, shells.t.ctx);
    expect(result.content).toBe("hello\n<exited with exit code 0>");
    expect(result.success).toBe(true);
    expect(result.telemetry?.exitCode).toBe(0);
  });

  it("reports a non-zero exit code as data, not as a tool failure", async () => {
    const result = await runTool(bash(), { command: "echo before; exit 3", description: "Fail" }, shells.t.ctx);
    expect(result.success).toBe(true);
    expect(result.content).toBe("before\n<exited with exit code 3>");
    expect(result.telemetry?.exitCode).toBe(3);
  });

  it("captures stderr interleaved with stdout", async () => {
    const command = "echo out1; echo err1 >&2; echo out2";
    const result = await runTool(bash(), { command, description: "Both streams" }, shells.t.ctx);
    expect(result.content).toContain("out1");
    expect(result.content).toContain("err1");
    expect(result.content.indexOf("out1")).toBeLessThan(result.content.indexOf("out2"));
    expect(result.content.endsWith("<exited with exit code 0>")).toBe(true);
  });

  it("reports a command killed by a signal", async () => {
    const result = await runTool(bash(), { command: "kill -TERM $$", description: "Suicide" }, shells.t.ctx);
    expect(result.content).toBe("<killed by signal SIGTERM>");
    expect(result.telemetry?.signal).toBe("SIGTERM");
  });

  it("gives commands /dev/null as stdin", async () => {
    const cat = await runTool(bash(), { command: "cat", description: "Cat stdin", initial_wait: 20 }, shells.t.ctx);
    expect(cat.content).toBe("<exited with exit code 0>");
    const read = await runTool(bash(), { command: 'read x; echo "status:$? got:$x"', description: "Read stdin", initial_wait: 20 }, nextCall(shells.t));
    expect(read.content).toBe("status:1 got:\n<exited with exit code 0>");
  });

  it("runs in ctx.cwd with the agent's extra environment variables", async () => {
    const command = 'pwd; echo "$COPILOT_CLI $AGENT_CLI $GIT_TERMINAL_PROMPT $PAGER $GIT_PAGER"; echo "home:$HOME"';
    const result = await runTool(bash(), { command, description: "Env" }, shells.t.ctx);
    expect(result.content).toBe(`${shells.t.cwd}\n1 1 0 cat cat\nhome:${process.env.HOME ?? ""}\n<exited with exit code 0>`);
  });

  it("starts a fresh process for every call: cd and exports do not persist", async () => {
    await runTool(bash(), { command: "export FOO=bar; cd /", description: "Change state" }, shells.t.ctx);
    const result = await runTool(bash(), { command: 'echo "foo:$FOO"; pwd', description: "Check" }, nextCall(shells.t));
    expect(result.content).toBe(`foo:\n${shells.t.cwd}\n<exited with exit code 0>`);
  });

  it("streams output chunks to onPartialOutput", async () => {
    const result = await runTool(bash(), { command: "echo one; echo two >&2", description: "Stream" }, shells.t.ctx);
    expect(shells.t.partial.join("")).toContain("one\n");
    expect(shells.t.partial.join("")).toContain("two\n");
    expect(result.content).toContain("one");
  });

  it("fails with a ToolError when the working directory does not exist", async () => {
    const ctx = { ...shells.t.ctx, cwd: `${shells.t.cwd}/missing` };
    await expect(runTool(bash(), { command: "true", description: "x" }, ctx)).rejects.toThrow(ToolError);
  });

  it("rejects detach in sync mode", async () => {
    const args = { command: "true", description: "x", detach: true };
    await expect(runTool(bash(), args, shells.t.ctx)).rejects.toThrow(/async/);
  });

  it("does not start anything when the call is already aborted", async () => {
    shells.t.controller.abort();
    const result = await runTool(bash(), { command: "touch started", description: "x" }, shells.t.ctx);
    expect(result.content).toBe(INTERRUPTED_TOOL_TEXT);
    expect(shells.manager.list()).toEqual([]);
  });
});

describe("tool definitions", () => {
  it("has the four shells.tools with the expected kinds", () => {
    expect(shells.tools.map((tool) => [tool.name, tool.kind, tool.readOnly])).toEqual([
      ["bash", "shell", false],
      ["read_bash", "read", true],
      ["stop_bash", "control", false],
      ["list_bash", "read", true],
    ]);
  });

  it("produces JSON schemas with the required fields", () => {
    const required = shells.tools.map((tool) => {
      const schema = z.toJSONSchema(tool.parameters) as { required?: string[]; properties?: object };
      expect(schema.properties).toBeDefined();
      return [tool.name, schema.required ?? []];
    });
    expect(required).toEqual([
      ["bash", ["command", "description"]],
      ["read_bash", ["shellId", "delay"]],
      ["stop_bash", ["shellId"]],
      ["list_bash", []],
    ]);
  });

  it("asks shell permission for bash with the command and its description (the gate analyses it)", async () => {
    const args = bash().parameters.parse({ command: "git status && rm -rf build > out.txt", description: "Clean" });
    const request = await bash().permission(args, { cwd: shells.t.cwd, toolCallId: "call_x" });
    expect(request).toEqual({
      kind: "shell",
      fullCommandText: "git status && rm -rf build > out.txt",
      intention: "Clean",
      commands: [],
      possiblePaths: [],
      toolCallId: "call_x",
    });
  });

  it("needs no permission for read_bash, stop_bash and list_bash", async () => {
    for (const name of ["read_bash", "stop_bash", "list_bash"]) {
      const tool = findTool(shells.tools, name);
      const args = tool.parameters.parse(name === "list_bash" ? {} : { shellId: "1", delay: 1 });
      expect(await tool.permission(args, { cwd: shells.t.cwd, toolCallId: "c" })).toBeNull();
    }
  });

  it("uses the description as the title", () => {
    const args = bash().parameters.parse({ command: "ls", description: "List files" });
    expect(bash().title?.(args)).toBe("List files");
  });
});
