/**
 * `agent -p --output-format json` prints every event a run emits, ephemeral ones included: folded, they are
 * the run's live state. A real session of the built binary against the scripted server, then a resume of it:
 * the fold of the log on disk equals the live state (less what only one process knows), and the result line
 * reports the usage the state holds.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { beginProcess, type SessionState } from "../../src/core/state/session-state.js";
import { foldEvents } from "../../src/core/state/state-fold.js";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { readEventLog } from "../../src/session/event-log-reader.js";
import { SessionStore } from "../../src/session/session-store.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";

const ws = useE2eWorkspace({ prefix: "e2e-state" });

interface ResultLine {
  type: "result";
  sessionId: string;
  usage: { requests: number; inputTokens: number; outputTokens: number; totalApiDurationMs: number; codeChanges: unknown };
}

async function run(args: string[]): Promise<{ events: SessionEvent[]; result: ResultLine }> {
  const done = await runAgent([...args, "--output-format", "json", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
  expect(done.code, done.stderr).toBe(0);
  const lines = done.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as SessionEvent | ResultLine);
  return { events: lines.filter((line): line is SessionEvent => line.type !== "result"), result: lines.at(-1) as ResultLine };
}

function fromLog(state: SessionState) {
  const { permissions: _permissions, busy: _busy, queue: _queue, shells: _shells, mcpServers: _mcp, todos: _todos, todosAsWritten: _written, ...rest } = state;
  return rest;
}

/** What the result line says this run used, as the state's usage of the process has it. */
function reported(state: SessionState) {
  const { requests, apiDurationMs, modelMetrics, codeChanges } = state.usage.current;
  const tokens = Object.values(modelMetrics).reduce(
    (sum, metric) => ({ inputTokens: sum.inputTokens + metric.usage.inputTokens, outputTokens: sum.outputTokens + metric.usage.outputTokens }),
    { inputTokens: 0, outputTokens: 0 },
  );
  return { requests, ...tokens, totalApiDurationMs: apiDurationMs, codeChanges };
}

describe("a headless run's state", () => {
  it("folded live from its events equals the fold of its log, across a resume; the result line reports the state's usage", async () => {
    ws.server.enqueue(toolCall("create", { path: path.join(ws.cwd, "notes.md"), file_text: "a\nb\nc\n" }), text("Wrote it."));
    const first = await run(["-p", "write notes"]);
    const log = () => readEventLog(new SessionStore(ws.home).eventsFileOf(first.result.sessionId)).events;
    const afterFirst = log();
    const live = foldEvents(first.events);
    expect(fromLog(foldEvents(afterFirst))).toEqual(fromLog(live));
    expect(first.result.usage).toMatchObject(reported(live));
    expect(live.usage.current.codeChanges).toEqual({ linesAdded: 3, linesRemoved: 0, filesModified: [path.join(ws.cwd, "notes.md")] });

    ws.server.enqueue(text("Still there."));
    const second = await run(["--resume", first.result.sessionId, "-p", "check them"]);
    // The resumed process starts from the fold of the log as it found it.
    const opened = beginProcess(foldEvents(afterFirst), { model: "", context: { cwd: "" }, permissions: live.permissions, startTime: 0 });
    const resumedLive = foldEvents(second.events, opened);
    expect(fromLog(foldEvents(log()))).toEqual(fromLog(resumedLive));
    expect(second.result.usage).toMatchObject(reported(resumedLive));
    expect(resumedLive.usage.earlier).toMatchObject({ processes: 2, linesAdded: 3 });
    expect(resumedLive.usage.current.requests).toBe(1);
  });
});
