/**
 * A setting a user made reaches every face's sessions alike, as each composes its sessions in one place
 * (composeSessionOptions): settings.json's compaction threshold makes `agent -p`, the TUI's sessions, an SDK
 * client's session and an ACP editor's session compact at the same point. Under the default threshold (80% of
 * the 128k prompt limit) nothing here would compact: the ACP and SDK faces once ignored the setting.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { approveAll } from "@github/copilot-sdk";
import { describe, expect, it } from "vitest";
import { choose } from "../support/acp-client.js";
import { useAcpWorkspace } from "../support/acp-workspace.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall, type ScriptedServer } from "../support/scripted-server.js";
import { useSdkWorld } from "../support/sdk-client.js";
import { TestSessionHost } from "../support/tui-host.js";

const SETTINGS = { compaction: { threshold: 0.5 } };
const SUMMARY = "<overview>Read the notes.</overview>\n<next_steps>None</next_steps>\n<checkpoint_title>Notes</checkpoint_title>";

/** A tool call whose reply says the prompt took 90k tokens (past 50% of 128k, short of 80%), the summary, the answer. */
function script(server: ScriptedServer, cwd: string): void {
  writeFileSync(path.join(cwd, "notes.txt"), "alpha\n");
  server.enqueue(
    toolCall("view", { path: path.join(cwd, "notes.txt") }, { usage: { prompt_tokens: 90_000, completion_tokens: 10 } }),
    text(SUMMARY),
    text("The notes say alpha."),
  );
}

/** The request after the tool call was the summary (no tools offered), and the answer's request starts from it. */
function expectCompacted(server: ScriptedServer): void {
  const requests = server.completionRequests;
  expect(requests).toHaveLength(3);
  expect(requests[1]?.body.tool_choice).toBe("none");
  expect(JSON.stringify(requests[2]?.body.messages)).toContain("<conversation_summary>");
}

describe("settings.json compaction reaches", () => {
  describe("agent -p", () => {
    const ws = useE2eWorkspace({ prefix: "settings-p" });
    it("and its session compacts at the threshold set", async () => {
      writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify(SETTINGS));
      script(ws.server, ws.cwd);
      const run = await runAgent(["-p", "what do the notes say?", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("The notes say alpha.");
      expectCompacted(ws.server);
    });
  });

  describe("the TUI's session host", () => {
    it("and its session compacts at the threshold set", async () => {
      const host = await TestSessionHost.start({ allowAllTools: true }, {}, SETTINGS);
      try {
        script(host.server, host.session.cwd);
        const result = await host.session.dispatch({ type: "send", prompt: "what do the notes say?" });
        expect(result.finalMessage).toBe("The notes say alpha.");
        expectCompacted(host.server);
      } finally {
        await host.close();
      }
    });
  });

  describe("an SDK client's session", () => {
    const sdk = useSdkWorld();
    it("and it compacts at the threshold set", async () => {
      mkdirSync(sdk.world.home, { recursive: true });
      writeFileSync(path.join(sdk.world.home, "settings.json"), JSON.stringify(SETTINGS));
      script(sdk.server, sdk.world.cwd);
      const client = sdk.world.client();
      const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
      expect((await session.sendAndWait({ prompt: "what do the notes say?" }))?.data.content).toBe("The notes say alpha.");
      expectCompacted(sdk.server);
      await client.stop();
    });
  });

  describe("an ACP editor's session", () => {
    const acp = useAcpWorkspace();
    it("and it compacts at the threshold set", async () => {
      const { ws } = acp;
      writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify(SETTINGS));
      script(ws.server, ws.cwd);
      const client = await acp.connect({ handlers: { permission: choose("allow-once") } });
      const { sessionId } = await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
      const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "what do the notes say?" }] });
      expect(response.stopReason).toBe("end_turn");
      expect(client.agentText(sessionId)).toContain("The notes say alpha.");
      expectCompacted(ws.server);
    });
  });
});
