/**
 * Memory inside a session, through the real engine and the scripted server: the board survives compaction,
 * /context gives it its own row, /memory off and on change the next request at once, the rem-agent's own tools
 * reach no other agent, a consolidation run keeps nothing for every repository, and a store file a person broke
 * is reported once without stopping the session.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { memorySettings } from "../../src/memory/memory-settings.js";
import { MemorySpace } from "../../src/memory/memory-space.js";
import { tempDir } from "../support/engine-harness.js";
import { useHarnesses } from "../support/harnesses.js";
import { text, toolCall, type CompletionRequest } from "../support/scripted-server.js";

const harnesses = useHarnesses();
/** Homes and working folders made before a session opens (its memories must be there first): removed at the end. */
const root = tempDir("memory-session-");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ON = { enabled: true, settings: memorySettings({ enabled: true }) };
const SUMMARY = "<overview>Talked.</overview>\n<next_steps>None</next_steps>\n<checkpoint_title>Talk</checkpoint_title>";
const systemOf = (request: CompletionRequest | undefined) => String(request?.body.messages[0]?.content ?? "");
const toolsOf = (request: CompletionRequest | undefined) => ((request?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

async function withMemories(facts: string[]): Promise<{ home: string; cwd: string }> {
  const home = mkdtempSync(path.join(root, "home-"));
  const cwd = mkdtempSync(path.join(root, "cwd-"));
  const space = new MemorySpace(home, cwd);
  for (const fact of facts) await space.store({ subject: "conventions", fact, citations: ["README.md:1"], scope: "repository" });
  return { home, cwd };
}

describe("memory in a session", () => {
  it("keeps the board in the system prompt after /compact, and /context shows it as its own row", async () => {
    const dirs = await withMemories(["Branch names start with the ticket id."]);
    const harness = await harnesses.start({ ...dirs, memory: ON });
    // /compact needs two exchanges at least.
    harness.server.enqueue(text("first"), text("second"), text(SUMMARY), text("after"));
    await harness.session.send("hello");
    await harness.session.send("and again");
    const routed = await harness.session.dispatch({ type: "input", text: "/compact" });
    expect(routed.kind === "prompt" && (await routed.run).outcome).toBe("completed");
    await harness.session.send("after compaction");
    const [first, , , after] = harness.server.completionRequests;
    expect(systemOf(first)).toContain("Branch names start with the ticket id.");
    expect(systemOf(after)).toBe(systemOf(first));

    await harness.session.dispatch({ type: "input", text: "/context" });
    const usage = harness.ofType("session.usage_info").at(-1)?.data;
    expect(usage?.contextBoardTokens).toBeGreaterThan(10);
    const report = harness.ofType("session.info").find((event) => event.data.infoType === "context")?.data.message ?? "";
    expect(report).toMatch(/Memory \(board, budget 1\.5k\)\s+\d+/);
  });

  it("/memory off takes the board and the tools away at the next request; /memory on brings them back", async () => {
    const dirs = await withMemories(["Use pnpm, not npm."]);
    const harness = await harnesses.start({ ...dirs, memory: { ...ON, persist: () => undefined } });
    harness.server.enqueue(text("1"), text("2"), text("3"));
    await harness.session.send("one");
    await harness.session.dispatch({ type: "input", text: "/memory off" });
    await harness.session.send("two");
    await harness.session.dispatch({ type: "input", text: "/memory on" });
    await harness.session.send("three");
    const [one, two, three] = harness.server.completionRequests;
    expect(systemOf(one)).toContain("Use pnpm, not npm.");
    expect(toolsOf(one)).toContain("store_memory");
    expect(systemOf(two)).not.toContain("<context_board>");
    expect(toolsOf(two)).not.toContain("store_memory");
    expect(systemOf(three)).toContain("Use pnpm, not npm.");
    expect(toolsOf(three)).toContain("vote_memory");
  });

  it("gives the rem-agent's own tools to no agent that does not list them (a general-purpose subagent included)", async () => {
    const harness = await harnesses.start({ memory: ON, allowAllTools: true });
    harness.server.enqueue(
      toolCall("task", { description: "look", prompt: "look around", agent_type: "general-purpose" }),
      text("sub done"),
      text("main done"),
    );
    await harness.session.send("delegate");
    const [main, sub] = harness.server.completionRequests;
    for (const request of [main, sub]) {
      expect(toolsOf(request)).toContain("store_memory");
      expect(toolsOf(request)).not.toContain("session_digest");
      expect(toolsOf(request)).not.toContain("context_board");
    }
    expect(String(sub?.body.messages[0]?.content)).not.toContain("You are the memory-consolidation agent");
  });

  it("a consolidation run (detached from a parent) keeps this repository's memories only", async () => {
    const harness = await harnesses.start({ memory: ON, allowAllTools: true, detachedFrom: "not-a-session" });
    harness.server.enqueue(
      toolCall("store_memory", { subject: "editor", fact: "The user likes vim.", scope: "user" }),
      toolCall("store_memory", { subject: "tests", fact: "make check runs them." }),
      text("done"),
    );
    await harness.session.send("consolidate");
    const results = harness.ofType("tool.execution_complete").map((event) => event.data);
    expect(results[0]?.error?.message).toContain("keeps only this repository's memories");
    expect(results[1]?.success).toBe(true);
    expect(new MemorySpace(harness.home, harness.cwd).read().records.map((record) => record.scope)).toEqual(["repository"]);
  });

  it("reports a store line that is not a memory once, keeps it, and goes on", async () => {
    const dirs = await withMemories(["Fine fact."]);
    const file = new MemorySpace(dirs.home, dirs.cwd).repository.file;
    writeFileSync(file, `{oops\n${readFileSync(file, "utf8")}`);
    const harness = await harnesses.start({ ...dirs, memory: ON });
    const warnings = harness.ofType("session.warning").map((event) => event.data.message);
    expect(warnings).toEqual([`${file} line 1 is not a memory (not valid JSON); it is kept in the file and ignored.`]);
    harness.server.enqueue(text("ok"));
    await harness.session.send("hi");
    expect(systemOf(harness.server.completionRequests[0])).toContain("Fine fact.");
    expect(readFileSync(file, "utf8").startsWith("{oops\n")).toBe(true);
  });
});
