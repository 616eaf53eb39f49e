/**
 * The detached consolidation after an interactive session (src/cli/memory-consolidation.ts), with the real
 * bin/agent as the child and the scripted server as its model: it starts only with memory on and enough user
 * turns, once per session; the child runs as the rem-agent with the memory tools alone and only the memory
 * permission, names its parent in its session.start, reads the parent's transcript and updates the board.
 * The test waits for the child's own session log to end, never for a fixed time.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { consolidateAfterSession, consolidationArgs, CONSOLIDATION_MARKER, type EndedSession } from "../../src/cli/memory-consolidation.js";
import { memorySettings } from "../../src/memory/memory-settings.js";
import { MemorySpace } from "../../src/memory/memory-space.js";
import { AGENT_BIN, runAgent } from "../support/run-agent.js";
import { text, toolCall, type CompletionRequest } from "../support/scripted-server.js";
import { useAgentQueues, useE2eWorkspace } from "../support/e2e-workspace.js";
import { waitUntil } from "../support/tmux.js";

const { main, responder } = useAgentQueues();
const ws = useE2eWorkspace({ prefix: "consolidate", server: { responder }, removeDirs: true });
const settings = memorySettings({ enabled: true });

/** A session with `turns` prompts of the person's, made by the real binary; its id and folder. */
async function parentSession(turns: number): Promise<EndedSession> {
  for (let turn = 0; turn < turns; turn++) {
    main.push(text(`Answer ${turn}.`));
    const args = [...(turn > 0 ? ["--continue"] : []), "-p", turn === 0 ? "The tests run with make check." : `prompt ${turn}`];
    expect((await runAgent(args, { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
  }
  const [id] = readdirSync(path.join(ws.home, "session-state"));
  return {
    id: id as string,
    dir: path.join(ws.home, "session-state", id as string),
    cwd: ws.cwd,
    model: "scripted-model",
    userTurns: turns,
    memoryEnabled: true,
  };
}

function sessionLog(id: string): string {
  const file = path.join(ws.home, "session-state", id, "events.jsonl");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

describe("the consolidation after an interactive session", () => {
  it("runs the rem-agent detached with only the memory permission; its log names the parent; it updates the board; never twice", async () => {
    const parent = await parentSession(3);
    const before = ws.server.completionRequests.length;
    let digest = "";
    main.push(
      toolCall("session_digest", {}),
      (request: CompletionRequest) => {
        digest = String(request.body.messages.at(-1)?.content ?? "");
        return toolCall("context_board", { command: "add", subject: "tests", fact: "Run the tests with make check.", citations: `session:${parent.id}` });
      },
      text("Added one memory."),
    );

    const outcome = consolidateAfterSession(parent, settings, { agentBin: AGENT_BIN, env: ws.env() });
    expect(outcome).toMatchObject({ started: true });
    expect(existsSync(path.join(parent.dir, CONSOLIDATION_MARKER))).toBe(true);
    // Never twice for one session, even asked again at once.
    expect(consolidateAfterSession(parent, settings, { agentBin: AGENT_BIN, env: ws.env() })).toEqual({
      started: false,
      reason: "this session was consolidated already",
    });

    const childId = () => readdirSync(path.join(ws.home, "session-state")).find((id) => id !== parent.id);
    await waitUntil(() => /"type":"session.shutdown"/.test(sessionLog(childId() ?? "none")), 30_000, "the child's session to end");
    const log = sessionLog(childId() as string);
    const start = JSON.parse(log.split("\n")[0] as string) as { type: string; data: Record<string, unknown> };
    expect(start.type).toBe("session.start");
    expect(start.data.detachedFromSpawningParentSessionId).toBe(parent.id);
    expect(log).toContain('"type":"subagent.selected"');
    expect(log).toContain('"agentName":"rem-agent"');

    const first = ws.server.completionRequests[before] as CompletionRequest;
    const tools = ((first.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name).sort();
    expect(tools).toEqual(["context_board", "read_memories", "session_digest", "store_memory", "vote_memory"]);
    expect(String(first.body.messages.at(-1)?.content)).toContain(`The interactive session ${parent.id}`);
    expect(digest).toContain("USER: The tests run with make check.");
    expect(digest).toContain("USER: prompt 2");

    const [memory] = new MemorySpace(ws.home, ws.cwd).read().records;
    expect(memory).toMatchObject({ subject: "tests", fact: "Run the tests with make check.", source: { sessionId: parent.id } });
  }, 60_000);

  it("starts nothing with memory off, consolidation off, or too few user turns", () => {
    const session: EndedSession = { id: "s", dir: ws.home, cwd: ws.cwd, model: "m", userTurns: 3, memoryEnabled: true };
    expect(consolidateAfterSession({ ...session, memoryEnabled: false }, settings)).toEqual({ started: false, reason: "memory is off" });
    expect(consolidateAfterSession(session, memorySettings({ enabled: true, consolidate: false }))).toMatchObject({ started: false });
    expect(consolidateAfterSession({ ...session, userTurns: 2 }, settings)).toEqual({ started: false, reason: "2 user turn(s), fewer than 3" });
    expect(consolidateAfterSession({ ...session, userTurns: 4 }, memorySettings({ enabled: true, consolidateAfterTurns: 5 }))).toMatchObject({
      started: false,
    });
    expect(existsSync(path.join(ws.home, CONSOLIDATION_MARKER))).toBe(false);
  });

  it("asks for the memory permission alone: no --yolo, no other tool", () => {
    const args = consolidationArgs({ id: "abc", dir: "/d", cwd: "/w", model: "gpt-x", userTurns: 3, memoryEnabled: true });
    expect(args.slice(0, 2)).toEqual(["--agent", "rem-agent"]);
    expect(args).toEqual(expect.arrayContaining(["--silent", "--enable-memory", "--model", "gpt-x"]));
    expect(args[args.indexOf("--allow-tool") + 1]).toBe("memory");
    expect(args.filter((arg) => /^--(yolo|allow-all)/.test(arg))).toEqual([]);
  });
});
