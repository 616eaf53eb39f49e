/**
 * The loop's edges with the real bin/agent -p: an answer cut by the output limit prints as one answer, too
 * many cuts exit 3, and a model that repeats one call after the warning exits 6 (nobody to ask).
 */
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace({ prefix: "edges" });
const cut = { finishReason: "length" };
const resultLine = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) as string) as Record<string, unknown>;

describe("agent -p at the loop's edges", () => {
  it.each([
    ["text", [], "The first half of the answer, and the rest.\n"],
    ["silent", ["-s"], "The first half of the answer, and the rest.\n"],
  ])("an answer cut by the output limit prints whole, once (%s)", async (_name, extra, expected) => {
    ws.server.enqueue(text("The first half of the ans", cut), text("wer, and the rest."));
    const run = await runAgent(["-p", "explain", ...extra], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(expected);
  });

  it("the JSON result's answer is the whole answer", async () => {
    ws.server.enqueue(text("Alpha, bet", cut), text("a, gamma."));
    const run = await runAgent(["-p", "list", "--output-format", "json"], { env: ws.env(), cwd: ws.cwd });
    expect(resultLine(run.stdout)).toMatchObject({ exitCode: 0, outcome: "completed", answer: "Alpha, beta, gamma." });
  });

  it("cut again and again: exit 3 with the reason", async () => {
    ws.server.enqueue(...Array.from({ length: 5 }, (_, index) => text(`part ${index} `, cut)));
    const run = await runAgent(["-p", "go on"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/cut off by the output limit 4 times in a row/);
  });

  it("the same call after the warning: exit 6, error kind doom_loop", async () => {
    const again = () => toolCall("glob", { pattern: "*" });
    ws.server.enqueue(again(), again(), again(), again(), text("never"));
    const run = await runAgent(["-p", "look", "--output-format", "json"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(6);
    expect(resultLine(run.stdout)).toMatchObject({
      exitCode: 6,
      outcome: "error",
      error: { kind: "doom_loop", message: expect.stringMatching(/^The agent called glob with the same arguments 4 times in a row/) },
    });
    expect(ws.server.completionRequests).toHaveLength(4);
  });
});
