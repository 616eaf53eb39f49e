/**
 * The real bin/agent against endpoints that misbehave and readers that go away: a closed pipe, a retried
 * stream, malformed bodies, nothing listening, an unknown model, JSON output to the end.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { AGENT_BIN, agentEnv, collect, runAgent, startAgent } from "../support/run-agent.js";
import { httpError, sse, startScriptedServer, text, toolCall } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { onWire } from "../support/test-wire.js";

const ws = useE2eWorkspace();
beforeEach(() => {
  // Retries within milliseconds, so tests of retried responses do not wait out the real backoff.
  writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify({ provider: { retry: { baseDelayMs: 1, maxDelayMs: 5 } } }));
});

const sessionIds = () => (existsSync(path.join(ws.home, "session-state")) ? readdirSync(path.join(ws.home, "session-state")) : []);
const logOf = (id: string) =>
  readFileSync(path.join(ws.home, "session-state", id, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { id: string; parentId: string | null; type: string });
const jsonLines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** `agent … | head -1` through a real shell; the agent's own exit code is reported on stderr. */
function throughHead(args: string[]): Promise<{ stdout: string; stderr: string; agentCode: number }> {
  const quoted = [process.execPath, AGENT_BIN, ...args].map((arg) => `'${arg.replace(/'/g, "'\\''")}'`).join(" ");
  const child = spawn("bash", ["-c", `${quoted} | head -1; echo "agent-exit=\${PIPESTATUS[0]}" >&2`], {
    cwd: ws.cwd,
    env: ws.env(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return collect(child).then((run) => {
    const match = /agent-exit=(\d+)/.exec(run.stderr);
    return { stdout: run.stdout, stderr: run.stderr.replace(/agent-exit=\d+\n?/, ""), agentCode: Number(match?.[1] ?? -1) };
  });
}

describe("a closed pipe is a normal ending", () => {
  // Far more than a pipe holds, so the agent is still writing when head has gone.
  const long = Array.from({ length: 8000 }, (_, index) => `line ${index} of a long answer`).join("\n");

  it.each([
    ["text", []],
    ["json", ["--output-format", "json"]],
  ])("%s output piped into head -1", async (_name, extra) => {
    ws.server.enqueue(toolCall("glob", { pattern: "*" }, { text: `${long}\n`, chunkSize: 400 }), text("never printed"));
    const run = await throughHead(["-p", "hi", ...extra]);
    expect(run.stdout.split("\n")).toHaveLength(2);
    expect(run.stderr).not.toMatch(/EPIPE|Error|at .+:\d+:\d+/);
    expect(run.agentCode).toBe(0);
    const [id] = sessionIds();
    const log = logOf(id as string);
    expect(log.at(-1)?.type).toBe("session.shutdown");
    log.forEach((event, index) => expect(event.parentId).toBe(index === 0 ? null : log[index - 1]?.id));
  });
});

describe("stdout is only the answer", () => {
  it("drops a retried attempt's partial text", async () => {
    ws.server.enqueue({ kind: "stream", text: "PARTIAL answer that will be cut off", chunkSize: 4, dropAfterChunks: 4 }, text("The full answer."));
    const run = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The full answer.\n");
    expect(run.stderr).toMatch(/retry 1/);
  });

  it("prints nothing of an attempt that failed for good", async () => {
    ws.server.enqueue({ kind: "stream", text: "PARTIAL", chunkSize: 2, dropAfterChunks: 2 }, httpError(401));
    const run = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("");
  });
});

describe("malformed responses, end to end", () => {
  // Where a body below is a Chat Completions one, the run speaks that wire whatever AGENT_TEST_WIRE says
  // (malformed-wires.test.ts has the other wires' corpus).
  const chatEnv = () => onWire(ws.env(), "chat");

  it("answers through junk data lines", async () => {
    ws.server.enqueue(sse("null", "42", "{}", JSON.stringify({ choices: [{ index: 0, delta: { content: "Fine." } }] }), "[DONE]"));
    const run = await runAgent(["-p", "hi"], { env: chatEnv(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Fine.\n");
    expect(run.stderr).not.toMatch(/Cannot read properties/);
  });

  it("accepts a non-streamed chat.completion", async () => {
    ws.server.enqueue({
      kind: "json",
      body: { object: "chat.completion", model: "m", choices: [{ index: 0, message: { role: "assistant", content: "Not streamed." }, finish_reason: "stop" }] },
    });
    const run = await runAgent(["-p", "hi", "-s"], { env: chatEnv(), cwd: ws.cwd });
    expect(run.stdout).toBe("Not streamed.\n");
  });

  it("accepts a stream that begins with a UTF-8 byte-order mark", async () => {
    const hello = JSON.stringify({ choices: [{ index: 0, delta: { role: "assistant", content: "BOM or not." } }] });
    ws.server.enqueue({ kind: "raw", body: `\uFEFFdata: ${hello}\n\ndata: [DONE]\n\n`, headers: { "content-type": "text/event-stream" } });
    const run = await runAgent(["-p", "hi", "-s"], { env: chatEnv(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("BOM or not.\n");
  });

  it("ends a stream kept alive with comments but no data as an idle timeout (exit 3), not a wait forever", async () => {
    writeFileSync(
      path.join(ws.home, "settings.json"),
      JSON.stringify({ provider: { streamIdleTimeoutMs: 500, retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 } } }),
    );
    const alive = { kind: "raw" as const, frames: [], keepAlive: { text: ": keep-alive\n\n", everyMs: 50 } };
    ws.server.enqueue(alive, alive);
    const run = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("The model endpoint sent no data for 500 ms, only keep-alives (provider.streamIdleTimeoutMs).");
    expect(ws.server.completionRequests).toHaveLength(2);
  });

  it("exits 3 for an HTML page, saying so", async () => {
    ws.server.enqueue({ kind: "raw", body: "<html><body>Welcome</body></html>", headers: { "content-type": "text/html" } });
    const run = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/HTML page/);
    expect(run.stdout).toBe("");
  });

  it("exits 3 for a response with nothing usable, after retrying it", async () => {
    const empty = sse(JSON.stringify({ choices: [] }), "[DONE]");
    ws.server.enqueue(empty, empty, empty, empty, empty, empty);
    const run = await runAgent(["-p", "hi", "--output-format", "json"], { env: chatEnv(), cwd: ws.cwd });
    expect(run.code).toBe(3);
    const lines = jsonLines(run.stdout);
    expect(lines.find((line) => line.type === "session.error")).toMatchObject({ data: { errorType: "empty_response" } });
    expect(lines.at(-1)).toMatchObject({ type: "result", exitCode: 3, outcome: "error", error: { kind: "empty_response" } });
    expect(ws.server.completionRequests).toHaveLength(6);
  });
});

describe("failing fast where nothing can succeed", () => {
  it("names the URL of an endpoint that refuses connections, after one quick retry, with no resume hint", async () => {
    const closed = await startScriptedServer();
    await closed.close();
    const run = await runAgent(["-p", "hi"], { env: agentEnv({ home: ws.home, baseUrl: closed.baseUrl }), cwd: ws.cwd });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(closed.baseUrl);
    expect(run.stderr).toMatch(/ECONNREFUSED.*OPENAI_BASE_URL/s);
    expect(run.stderr).toMatch(/Requests\s+2/);
    expect(run.stderr).not.toContain("Resume");
  });

  it("says model_not_found for a 404 naming the model, with no resume hint", async () => {
    ws.server.enqueue(httpError(404, { message: "The model `scripted-model` does not exist", code: "model_not_found" }));
    const run = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/The model "scripted-model" was not found/);
    expect(run.stderr).not.toContain("Resume");
  });

  it("keeps the resume hint when the model answered", async () => {
    ws.server.enqueue(text("hello"));
    const run = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.stderr).toContain("Resume     agent --resume");
  });
});

describe("figures that tell the truth", () => {
  it("counts the request interrupted by Ctrl+C", async () => {
    ws.server.enqueue({ kind: "stream", text: "a slow answer", chunkSize: 2, hangAfterChunks: 3 });
    const child = startAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    const done = collect(child);
    await ws.server.waitForHang();
    child.kill("SIGINT");
    const run = await done;
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/Requests\s+1 /);
  });
});

describe("JSON mode is JSON to the end", () => {
  it("ends a configuration error with a result line", async () => {
    const run = await runAgent(["-p", "hi", "--output-format", "json"], { env: agentEnv({ home: ws.home }), cwd: ws.cwd });
    expect(run.code).toBe(1);
    const result = jsonLines(run.stdout).at(-1);
    expect(result).toMatchObject({ type: "result", exitCode: 1, outcome: "error", error: { kind: "config" } });
    expect(String((result?.error as { message: string }).message)).toMatch(/OPENAI_BASE_URL/);
  });

  it("ends a resume error with a result line", async () => {
    const run = await runAgent(["--resume", "0123456789", "-p", "hi", "--output-format", "json"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(1);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({
      type: "result",
      exitCode: 1,
      error: { kind: "config", message: expect.stringMatching(/No session matches/) },
    });
  });

  it("ends a usage error with a result line", async () => {
    const run = await runAgent(["--output-format", "json", "--no-such-flag"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(2);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: "result", exitCode: 2, error: { kind: "usage" } });
  });

  it("with -s prints only the result line", async () => {
    ws.server.enqueue(text("quiet"));
    const run = await runAgent(["-p", "hi", "--output-format", "json", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    const lines = jsonLines(run.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: "result", answer: "quiet", exitCode: 0 });
  });
});
