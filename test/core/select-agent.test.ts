/** Running the main session as a custom agent: `select_agent` and `/agent`, against the scripted server. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { InputResult } from "../../src/protocol/commands.js";
import { startHarness, tempDir, type Harness } from "../support/engine-harness.js";
import { startScriptedServer, text } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function writeAgent(home: string, name: string, content: string): void {
  mkdirSync(path.join(home, "agents"), { recursive: true });
  writeFileSync(path.join(home, "agents", `${name}.agent.md`), content);
}

const READER = "---\ndescription: Reads and answers\ntools: [read, search]\n---\nYOU ARE THE READER AGENT.\n";

function requestParts(h: Harness, index: number): { system: string; tools: string[] } {
  const body = h.server.completionRequests[index]?.body;
  const system = String(body?.messages.find((message) => message.role === "system")?.content ?? "");
  const tools = ((body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? []).map((tool) => tool.function.name);
  return { system, tools };
}

async function input(h: Harness, line: string): Promise<InputResult> {
  return h.session.dispatch({ type: "input", text: line });
}

describe("select_agent", () => {
  it("puts the agent's body in the system prompt and narrows the tools, from the next prompt on; none undoes it", async () => {
    const h = (harness = await startHarness());
    writeAgent(h.home, "reader", READER);
    h.server.enqueue(text("plain"), text("as reader"), text("plain again"));

    await h.session.send("first");
    expect(requestParts(h, 0).system).not.toContain("READER AGENT");
    expect(requestParts(h, 0).tools).toContain("bash");

    expect(h.session.dispatch({ type: "select_agent", name: "reader" })).toBeUndefined();
    expect(h.ofType("subagent.selected").map((event) => event.data)).toEqual([
      { agentName: "reader", agentDisplayName: "Reader", tools: ["view", "grep", "glob"] },
    ]);
    await h.session.send("second");
    expect(requestParts(h, 1).system).toContain('<custom_agent name="reader">\nYOU ARE THE READER AGENT.\n</custom_agent>');
    expect(requestParts(h, 1).tools.sort()).toEqual(["glob", "grep", "view"]);

    h.session.dispatch({ type: "select_agent", name: null });
    expect(h.ofType("subagent.deselected")).toHaveLength(1);
    await h.session.send("third");
    expect(requestParts(h, 2).system).not.toContain("READER AGENT");
    expect(requestParts(h, 2).tools).toContain("bash");
  });

  it("an unknown name is an error listing the agents one can select, and changes nothing", async () => {
    const h = (harness = await startHarness());
    writeAgent(h.home, "reader", READER);
    const error = h.session.dispatch({ type: "select_agent", name: "nobody" });
    expect(error).toContain('Unknown agent "nobody"');
    expect(error).toContain("reader");
    expect(error).toContain("explore");
    expect(h.ofType("subagent.selected")).toHaveLength(0);
  });

  it("reports a bad agent file as a session warning naming the file and field, once", async () => {
    const h = (harness = await startHarness());
    writeAgent(h.home, "reader", READER);
    writeAgent(h.home, "broken", "---\ndescription: d\nuser-invocable: maybe\n---\nbody\n");
    h.session.dispatch({ type: "select_agent", name: "reader" });
    h.session.dispatch({ type: "select_agent", name: "reader" });
    const warnings = h.ofType("session.warning").map((event) => event.data.message);
    expect(warnings).toEqual([expect.stringContaining('broken.agent.md: field "user-invocable"')]);
  });
});

describe("resuming", () => {
  it("runs as the agent it last selected; one whose file is gone is a warning", async () => {
    const server = await startScriptedServer();
    const home = tempDir("agent-home-");
    const cwd = tempDir("agent-cwd-");
    try {
      writeAgent(home, "reader", READER);
      server.enqueue(text("one"), text("two"));
      const first = await startHarness({ server, home, cwd });
      first.session.dispatch({ type: "select_agent", name: "reader" });
      await first.session.send("first");
      const id = first.session.id;
      await first.close();

      const again = (harness = await startHarness({ server, home, cwd, resumeId: id }));
      expect(again.session.engine.agentName).toBe("reader");
      await again.session.send("second");
      expect(requestParts(again, 1).system).toContain("YOU ARE THE READER AGENT.");
      expect(requestParts(again, 1).tools.sort()).toEqual(["glob", "grep", "view"]);
      await again.close();
      harness = undefined;

      rmSync(path.join(home, "agents", "reader.agent.md"));
      const gone = (harness = await startHarness({ server, home, cwd, resumeId: id }));
      expect(gone.session.engine.agentName).toBeUndefined();
      expect(gone.ofType("session.warning").map((event) => event.data.message)).toEqual([
        expect.stringContaining("ran as the reader agent, which is no longer available"),
      ]);
    } finally {
      await harness?.close();
      harness = undefined;
      await server.close();
    }
  });
});

describe("/agent", () => {
  it("lists the custom agents, then selects one by name", async () => {
    const h = (harness = await startHarness());
    writeAgent(h.home, "reader", READER);
    const messages: string[] = [];
    h.session.subscribe((event) => {
      if (event.type === "session.info" || event.type === "session.warning") messages.push(event.data.message);
    });
    await input(h, "/agent");
    await input(h, "/agent reader");
    await input(h, "/agent nobody");
    const all = messages.join("\n---\n");
    expect(all).toContain("Custom agents:\n    reader (user): Reads and answers");
    expect(all).toContain("Running as the reader agent (tools: view, grep, glob)");
    expect(all).toContain('Unknown agent "nobody"');
    expect(h.ofType("subagent.selected")).toHaveLength(1);
    expect(h.session.engine.agentName).toBe("reader");
  });
});
