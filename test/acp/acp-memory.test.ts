/** Memory over ACP (the real `agent --acp`): with memory on in settings.json, `/subconscious run` starts the rem-agent in the background, and /memory is offered. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MemorySpace } from "../../src/memory/memory-space.js";
import { choose } from "../support/acp-client.js";
import { useAcpWorkspace } from "../support/acp-workspace.js";
import { useAgentQueues } from "../support/e2e-workspace.js";
import { text, toolCall } from "../support/scripted-server.js";
import { waitUntil } from "../support/tmux.js";

const acp = useAcpWorkspace();
const { ws } = acp;
const { main, child, responder } = useAgentQueues();

describe("memory over ACP", () => {
  it("/subconscious run starts the rem-agent in the background; it updates the board", async () => {
    await ws.replaceServer({ responder });
    writeFileSync(path.join(ws.home, "settings.json"), `${JSON.stringify({ memory: { enabled: true } })}\n`);
    main.push(
      toolCall("task", {
        description: "Consolidate session learnings",
        prompt: "Consolidate.",
        agent_type: "rem-agent",
        name: "rem-consolidate",
        mode: "background",
      }),
      text("Consolidating in the background."),
      text("Done."),
    );
    child.push(toolCall("context_board", { command: "add", subject: "lint", fact: "Lint with make lint.", citations: "Makefile:9" }), text("Added."));
    // The editor approves the memory when asked.
    const client = await acp.connect({ handlers: { permission: choose("allow-once") } });
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
    const offered = await client.waitForUpdate((update) => update.sessionUpdate === "available_commands_update");
    const names = offered.sessionUpdate === "available_commands_update" ? offered.availableCommands.map((command) => command.name) : [];
    expect(names).toEqual(expect.arrayContaining(["memory", "subconscious"]));
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/subconscious run" }] });
    expect(response.stopReason).toBe("end_turn");
    expect(String(ws.server.completionRequests[0]?.body.messages.at(-1)?.content)).toContain('agent_type: "rem-agent"');
    const space = new MemorySpace(ws.home, ws.cwd);
    await waitUntil(() => space.read().records.length > 0, 20_000, "the rem-agent's memory");
    expect(space.read().records[0]).toMatchObject({ subject: "lint", fact: "Lint with make lint." });
  }, 60_000);
});
