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
    // The two independent agents stay in progress until the screen has shown them at work.
    let release: () => void = () => undefined;
    const holdDone = new Promise<void>((resolve) => (release = resolve));
    const model = fleetModel({ databaseFile, holdDone });
    server = await startScriptedServer({ responder: model.responder });
    const env = agentEnv({ home, baseUrl: server.baseUrl });
    const pane = await tmux.open(`${AGENT} --fleet`, { cwd, env: { ...env, TERM: "tmux-256color" }, height: 40 });
    await pane.waitFor((screen) => screen.includes("› Ask anything"), { timeoutMs: 20_000, what: "the prompt" });
    await pane.type("Build the two parts and join them");
    await pane.sendKeys("Enter");
    await pane.waitForText("Fleet deployed: Build the two parts and join them", { timeoutMs: 20_000 });
    const working = await pane.waitFor((screen) => screen.includes("◐ Write part A · part-a-1") && screen.includes("◐ Write part B · part-b-1"), {
      timeoutMs: 20_000,
      what: "both agents at work",
    });
    expect(working).toContain("○ Join A and B");
    release();
    const done = await pane.waitFor((screen) => screen.includes("Todos · 3 done") && screen.includes("All 3 todos are done."), {
      timeoutMs: 30_000,
      what: "all todos done",
    });
    expect(done).toContain("✓ Join A and B · join-ab-1");
    expect(done).not.toContain("You are now in fleet mode");
    expect(model.parallel).toBe(true);
    await pane.close();
  });
});
