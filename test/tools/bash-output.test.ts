import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OutputBuffer, OutputWindow } from "../../src/tools/bash/index.js";
import { findTool, nextCall, runTool, useShellTools, waitFor } from "../support/bash-context.js";

const shells = useShellTools();

const HEAD = 10 * 1024;
const TAIL = 20 * 1024;

describe("large output", () => {
  it("keeps the head and tail, names the full-output file, and the file has every line", async () => {
    const result = await runTool(findTool(shells.tools, "bash"), { command: "seq 1 2000000", description: "Count" }, shells.t.ctx);
    const path = `${shells.t.sessionDir}/shell-output/${shells.t.ctx.toolCallId}.log`;
    expect(result.content.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.content.endsWith("1999999\n2000000\n<exited with exit code 0>")).toBe(true);
    const marker = /\[\.\.\. ([\d,]+) bytes of output omitted; the full output is in (\S+) \.\.\.\]/.exec(result.content);
    expect(marker?.[2]).toBe(path);
    expect(Buffer.byteLength(result.content)).toBeLessThan(HEAD + TAIL + 500);
    expect(result.telemetry?.fullOutputPath).toBe(path);

    const full = readFileSync(path, "utf8");
    const expectedBytes = full.length;
    const lines = full.split("\n");
    expect(lines.length).toBe(2000001);
    expect(lines[0]).toBe("1");
    expect(lines[1999999]).toBe("2000000");
    expect(lines[1000000]).toBe("1000001");
    const omitted = Number((marker?.[1] ?? "").replace(/,/g, ""));
    const kept = Buffer.byteLength(result.content.replace(/\n<exited.*$/, "").replace(marker?.[0] ?? "", "")) - 1;
    expect(omitted + kept).toBe(expectedBytes);
  });

  it("holds a bounded amount in memory while a command prints a lot", async () => {
    // Prints 38,888,896 bytes, then waits for the test, so the shell is still registered while we sample it.
    const command = "seq 1 5000000; while [ ! -e go ]; do sleep 0.05; done";
    const bash = findTool(shells.tools, "bash");
    const started = await runTool(bash, { command, description: "Count", mode: "async" }, shells.t.ctx);
    expect(started.content).toMatch(/^Started shell 1/);
    const shell = shells.manager.get("1");
    if (!shell) throw new Error("shell 1 is not registered");
    let maxRetained = 0;
    await waitFor(
      () => {
        maxRetained = Math.max(maxRetained, shell.buffer.retainedBytes);
        return shell.buffer.totalBytes >= 38_888_896;
      },
      60_000,
      "seq to finish printing",
    );
    expect(maxRetained).toBeLessThanOrEqual(HEAD + 2 * TAIL);
    await runTool(bash, { command: "touch go", description: "Release" }, nextCall(shells.t));
    const read = await runTool(findTool(shells.tools, "read_bash"), { shellId: "1", delay: 30 }, nextCall(shells.t));
    // Depending on speed, the output came with the start result or with the read.
    const combined = `${started.content}\n${read.content}`;
    expect(combined).toMatch(/the full output is in \S+shell-output\/call_\d+\.log/);
    expect(combined).toContain("4999999\n5000000\n");
    expect(read.content.endsWith("<exited with exit code 0>")).toBe(true);
    expect(Buffer.byteLength(combined)).toBeLessThan(2 * (HEAD + TAIL) + 1000);
    const full = readFileSync(`${shells.t.sessionDir}/shell-output/${shells.t.ctx.toolCallId}.log`, "utf8");
    expect(full.endsWith("4999999\n5000000\n")).toBe(true);
    expect(full.length).toBe(38_888_896);
  });

  it("leaves no output file for short output", async () => {
    const result = await runTool(findTool(shells.tools, "bash"), { command: "echo small", description: "x" }, shells.t.ctx);
    expect(result.telemetry?.fullOutputPath).toBeUndefined();
  });
});

describe("UTF-8", () => {
  it("decodes a multibyte character split across chunks", async () => {
    // € is e2 82 ac. The command writes "a" and half of it, waits until the test has seen the "a", then the rest.
    const command = "printf 'a\\xe2\\x82'; while [ ! -e go ]; do sleep 0.05; done; printf '\\xac and \\xf0\\x9f'; printf '\\x98\\x80\\n'";
    const bash = findTool(shells.tools, "bash");
    const running = runTool(bash, { command, description: "Euro", initial_wait: 600 }, shells.t.ctx);
    await waitFor(() => (shells.manager.get("1")?.buffer.totalBytes ?? 0) >= 1, 10_000, "the first byte");
    expect(shells.t.partial).toEqual(["a"]);
    await runTool(bash, { command: "touch go", description: "Release" }, nextCall(shells.t));
    const result = await running;
    expect(result.content).toBe("a€ and 😀\n<exited with exit code 0>");
    expect(shells.t.partial.join("")).toBe("a€ and 😀\n");
    expect(shells.t.partial.join("")).not.toContain("\uFFFD");
  });

  it("never cuts a character when truncating head and tail", () => {
    const window = new OutputWindow({ headBytes: 10, tailBytes: 10 });
    window.append("ééééééé"); // 14 bytes: the head takes 5 characters (10 bytes)
    for (let i = 0; i < 100; i++) window.append("€");
    window.append("€€€€x");
    const rendered = window.render("/tmp/full.log");
    expect(rendered.text).not.toContain("\uFFFD");
    expect(rendered.text.startsWith("ééééé\n[... ")).toBe(true);
    expect(rendered.text.endsWith("\n€€€x")).toBe(true);
    expect(rendered.bytes).toBe(14 + 300 + 13);
    expect(rendered.omittedBytes).toBe(14 + 300 + 13 - 10 - 10);
  });
});

describe("OutputBuffer", () => {
  it("returns everything when nothing had to be dropped, then starts a new unread window", () => {
    const buffer = new OutputBuffer({ fullOutputPath: "/nonexistent/x.log", writeFile: false, limits: { headBytes: 8, tailBytes: 8 } });
    buffer.append("abc");
    buffer.append("def\n");
    expect(buffer.takeUnread()).toEqual({ text: "abcdef\n", bytes: 7, omittedBytes: 0 });
    expect(buffer.unreadBytes).toBe(0);
    buffer.append("0123456789abcdefXYZ");
    const rendered = buffer.takeUnread();
    expect(rendered.text).toBe("01234567\n[... 3 bytes of output omitted; the full output is in /nonexistent/x.log ...]\nbcdefXYZ");
    expect(buffer.totalBytes).toBe(26);
  });

  it("stays bounded for tens of megabytes", () => {
    const buffer = new OutputBuffer({ fullOutputPath: "/nonexistent/x.log", writeFile: false });
    const chunk = "x".repeat(4000) + "\n";
    let peak = 0;
    for (let i = 0; i < 10_000; i++) {
      buffer.append(chunk);
      peak = Math.max(peak, buffer.retainedBytes);
    }
    expect(buffer.totalBytes).toBe(40_010_000);
    expect(peak).toBeLessThanOrEqual(HEAD + 2 * TAIL);
    const rendered = buffer.takeUnread();
    expect(rendered.omittedBytes).toBe(40_010_000 - HEAD - TAIL);
  });
});
