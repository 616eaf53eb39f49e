/**
 * One fleet run in the real TUI (tmux): `agent --fleet`, the first typed prompt becomes /fleet, the screen
 * says "Fleet deployed", the todo panel shows the todos with their agents at work, then all done, and the
 * run ends with the task-complete summary.
 */
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { fleetModel } from "../support/fleet-model.js";
import { AGENT_BIN, agentEnv } from "../support/run-agent.js";
import { startScriptedServer, type ScriptedServer } from "../support/scripted-server.js";
import { HAS_TMUX, shellQuote, TmuxServer } from "../support/tmux.js";

const AGENT = `${shellQuote(process.execPath)} ${shellQuote(AGENT_BIN)}`;

describe.skipIf(!HAS_TMUX)("a fleet in the TUI (tmux)", () => {
  let tmux: TmuxServer;
  let server: ScriptedServer;
  let home: string;
  let cwd: string;
  beforeAll(async () => {
    tmux = await TmuxServer.start();
    home = tempDir("tui-fleet-home-");
    cwd = tempDir("tui-fleet-cwd-");
  });
  afterAll(async () => {
    await tmux?.kill();
    await server?.close();
    for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  });

  it("--fleet: Fleet deployed, the todo panel live with each todo's agent, then all done", { timeout: 90_000 }, async () => {
    const databaseFile = () => {
      const root = path.join(home, "session-state");
      try {
        const [id] = readdirSync(root);
        return id ? path.join(root, id, "session.db") : undefined;
      } catch {
        return undefined;
      }
    };
    // Pacing only (each agent's "done" comes 400 ms after its "in progress"), so a screen poll can see agents at work.
    const model = fleetModel({ databaseFile, agentDelayMs: 400 });
    server = await startScriptedServer({ responder: model.responder });
    const env = agentEnv({ home, baseUrl: server.baseUrl });
    const pane = await tmux.open(`${AGENT} --fleet`, { cwd, env: { ...env, TERM: "tmux-256color" }, height: 40 });
    await pane.waitFor((screen) => screen.includes("› Ask anything"), { timeoutMs: 20_000, what: "the prompt" });
    await pane.type("Build the two parts and join them");
    await pane.sendKeys("Enter");
    await pane.waitForText("Fleet deployed: Build the two parts and join them", { timeoutMs: 20_000 });
    const working = await pane.waitFor((screen) => /◐ Write part [AB] · part-[ab]-1/.test(screen), { timeoutMs: 20_000, what: "an agent at work" });
    expect(working).toContain("○ Join A and B");
    const done = await pane.waitFor((screen) => screen.includes("Todos · 3 done") && screen.includes("Task complete"), {
      timeoutMs: 30_000,
      what: "all todos done",
    });
    expect(done).toContain("✓ Join A and B · join-ab-1");
    expect(done).not.toContain("You are now in fleet mode");
    expect(model.parallel).toBe(true);
    await pane.close();
  });
});
