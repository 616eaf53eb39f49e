/**
 * `agent -p "/fleet …"` and `agent --fleet -p …` with the real binary: three todos, two run in parallel by
 * background agents, the third after both, all done, the run completes. sql.js (the todo store's wasm)
 * loads only when the sql tool is first called: a plain run never loads it. Needs dist/ (built first).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionDatabase } from "../../src/tools/sql/index.js";
import { tempDir } from "../support/engine-harness.js";
import { fleetModel, type FleetModel } from "../support/fleet-model.js";
import { AGENT_BIN, agentEnv, collect, runAgent } from "../support/run-agent.js";
import { startScriptedServer, text, type ScriptedServer } from "../support/scripted-server.js";

const TRACKER = pathToFileURL(fileURLToPath(new URL("../../bench/module-tracker.mjs", import.meta.url))).href;

let server: ScriptedServer;
let model: FleetModel;
let home: string;
let cwd: string;

const sessionDir = (): string | undefined => {
  const root = path.join(home, "session-state");
  const [id] = existsSync(root) ? readdirSync(root) : [];
  return id ? path.join(root, id) : undefined;
};
const databaseFile = () => {
  const dir = sessionDir();
  return dir ? path.join(dir, "session.db") : undefined;
};

beforeEach(async () => {
  home = tempDir("e2e-fleet-home-");
  cwd = tempDir("e2e-fleet-cwd-");
  model = fleetModel({ databaseFile });
  server = await startScriptedServer({ responder: model.responder });
});
afterEach(async () => {
  await server.close();
});

const env = (extra: Record<string, string> = {}) => agentEnv({ home, baseUrl: server.baseUrl, extra });
const events = () =>
  readFileSync(path.join(sessionDir() as string, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; agentId?: string; data: Record<string, unknown> });

async function todosOnDisk() {
  const database = new SessionDatabase(databaseFile() as string);
  try {
    return (await database.todos()).map((todo) => [todo.id, todo.status]);
  } finally {
    database.close();
  }
}

async function expectFleetRan(run: { code: number | null; stdout: string; stderr: string }) {
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain("Fleet deployed: Build the two parts and join them");
  expect(run.stdout).toContain("All 3 todos are done.");
  expect(model.parallel).toBe(true);
  expect((model.seenAtStart.get("join-ab") ?? []).filter((todo) => todo.id !== "join-ab").map((todo) => todo.status)).toEqual(["done", "done"]);
  expect(await todosOnDisk()).toEqual([
    ["part-a", "done"],
    ["part-b", "done"],
    ["join-ab", "done"],
  ]);
  const log = events();
  expect(log.filter((event) => event.type === "subagent.started").map((event) => event.data.executionMode)).toEqual(["background", "background", "background"]);
  // Fleet mode is the orchestration prompt, not autopilot: no switch, no task_complete nudges; the answer ends the run.
  expect(log.some((event) => event.type === "session.mode_changed")).toBe(false);
  expect(log.some((event) => event.type === "user.message" && event.data.source === "autopilot")).toBe(false);
  // Every agent answered: each has its end on record, none failed.
  expect(log.filter((event) => event.type === "subagent.completed")).toHaveLength(3);
  expect(log.some((event) => event.type === "subagent.failed")).toBe(false);
  // todos_changed is ephemeral: streamed to faces, never in the log.
  expect(log.some((event) => event.type === "session.todos_changed")).toBe(false);
}

describe("agent -p with /fleet", () => {
  it('-p "/fleet <task>" runs the todos in parallel, ordered by their dependencies, and loads sql.js then', async () => {
    const modules = path.join(tempDir("e2e-fleet-log-"), "modules.log");
    const child = spawn(process.execPath, ["--import", TRACKER, AGENT_BIN, "-p", "/fleet Build the two parts and join them", "--allow-all-tools"], {
      cwd,
      env: env({ BENCH_MODULE_LOG: modules }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    await expectFleetRan(await collect(child));
    expect(readFileSync(modules, "utf8")).toMatch(/^cjs .*dist\/sql\/sql-wasm\.cjs$/m);
  });

  it("--fleet -p <task> does the same", async () => {
    const run = await runAgent(["--fleet", "-p", "Build the two parts and join them", "--allow-all-tools"], { env: env(), cwd });
    await expectFleetRan(run);
    const first = server.completionRequests[0]?.body.messages.filter((message) => message.role === "user").at(-1);
    expect(String(first?.content)).toContain("fleet mode");
  });
});

describe("start-up", () => {
  it("does not load sql.js or its wasm for a run that never calls the sql tool", async () => {
    const plain = await startScriptedServer({ script: [text("Hello.")] });
    try {
      const modules = path.join(tempDir("e2e-fleet-log-"), "modules.log");
      const child = spawn(process.execPath, ["--import", TRACKER, AGENT_BIN, "-p", "say hello"], {
        cwd,
        env: { ...agentEnv({ home, baseUrl: plain.baseUrl }), BENCH_MODULE_LOG: modules },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const run = await collect(child);
      expect(run.stdout).toBe("Hello.\n");
      const log = readFileSync(modules, "utf8");
      // The fleet run above shows the tracker does see sql-wasm.cjs when it is loaded.
      expect(log).toContain("esm file:");
      expect(log).not.toMatch(/sql-wasm|node_modules\/sql\.js/);
      expect(existsSync(databaseFile() as string)).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
