/** The session commands in the whole app over the real engine: the palette's hints, /copy, /diff, /session plan, /cwd. */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useAppHarness } from "../support/app-harness.js";
import type { TuiHarness } from "../support/render-tui.js";
import { text } from "../support/scripted-server.js";

const { start: startApp } = useAppHarness();

function run(tui: TuiHarness, line: string): void {
  tui.bus.type(line);
  tui.bus.press("enter");
}

describe("session commands in the TUI", () => {
  it("the / palette lists the commands with their argument hints", async () => {
    const { tui } = await startApp();
    tui.bus.type("/ses");
    await tui.waitForFrame((frame) => frame.includes("❯ /session [info|plan|checkpoints [n]|files|rename|delete]"));
    tui.bus.press("ctrl+u");
    tui.bus.type("/sha");
    await tui.waitForFrame((frame) => frame.includes("❯ /share [file [path] | html [path]]"));
    tui.bus.press("ctrl+u");
    tui.bus.type("/add");
    await tui.waitForFrame((frame) => frame.includes("❯ /add-dir <dir>"));
    tui.bus.press("ctrl+u");
    tui.bus.type("/qui");
    await tui.waitForFrame((frame) => frame.includes("❯ /exit") && frame.includes("(/quit)"));
  });

  it("/copy sends the last answer to the terminal as OSC 52, base64 so none of its text reaches the terminal", async () => {
    const { host, tui } = await startApp();
    const answer = "Copy \u001b[31mthis\u001b[0m answer";
    host.server.enqueue(text(answer));
    run(tui, "hello");
    await tui.waitForFrame((frame) => frame.includes("answer"));
    run(tui, "/copy");
    await tui.waitForFrame((frame) => frame.includes("to the clipboard through the terminal (OSC 52)"));
    const sequence = `\u001b]52;c;${Buffer.from(answer, "utf8").toString("base64")}\u0007`;
    expect(tui.rawFrames().some((frame) => frame.includes(sequence))).toBe(true);
    expect(tui.rawFrames().some((frame) => frame.includes("\u001b[31mthis"))).toBe(false);
  });

  it("/diff shows each changed file's name and hunks", async () => {
    const { host, tui } = await startApp();
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: host.cwd, stdio: "ignore" });
    git("init", "-q");
    writeFileSync(path.join(host.cwd, "a.txt"), "one\ntwo\n");
    git("add", "a.txt");
    git("commit", "-q", "-m", "first");
    writeFileSync(path.join(host.cwd, "a.txt"), "one\nTWO\n");
    writeFileSync(path.join(host.cwd, "b.txt"), "fresh\n");
    run(tui, "/diff");
    const frame = await tui.waitForFrame((current) => current.includes("b.txt (new)"));
    expect(frame).toContain("2 files changed, +2 -1");
    expect(frame).toMatch(/a\.txt\n[\s\S]*- two[\s\S]*\+ TWO/);
    expect(host.server.completionRequests).toHaveLength(0);
  });

  it("/session plan shows the plan as a block; /cwd moves the session and says where, and /new starts there", async () => {
    const { host, tui } = await startApp();
    writeFileSync(path.join(host.session.dir, "plan.md"), "1. Cache the lookups.\n");
    run(tui, "/session plan");
    await tui.waitForFrame((frame) => frame.includes("1. Cache the lookups.") && frame.includes("── end of output ──"));
    mkdirSync(path.join(host.cwd, "pkg"));
    const before = host.cwd;
    run(tui, "/cwd pkg");
    await tui.waitForFrame((frame) => frame.includes(`Working directory: ${path.join(before, "pkg")}`));
    expect(host.cwd).toBe(path.join(before, "pkg"));
    run(tui, "/sesion");
    await tui.waitForFrame((frame) => frame.includes("Unknown command: /sesion (did you mean /session?)"));
    // /new starts where the session had moved to.
    const first = host.session.id;
    const switched = new Promise<void>((resolve) => host.onSwitch(resolve));
    run(tui, "/new");
    await switched;
    expect(host.session.id).not.toBe(first);
    expect(host.session.cwd).toBe(path.join(before, "pkg"));
  });
});
