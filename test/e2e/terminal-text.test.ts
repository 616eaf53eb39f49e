/** The real bin/agent in text mode with a model and a file that carry escape sequences (issue 7, item 2). */
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { CONTROL_LEFT } from "../support/hostile-terminal-text.js";
import { agentEnv, runAgent } from "../support/run-agent.js";
import { startScriptedServer, text, toolCall, type ScriptedServer } from "../support/scripted-server.js";

const HOSTILE = "\u001b[2J\u001b]2;PWNED\u0007\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\\u0007";

let server: ScriptedServer;
let home: string;
let cwd: string;
beforeEach(async () => {
  server = await startScriptedServer();
  home = tempDir("e2e-term-home-");
  cwd = tempDir("e2e-term-cwd-");
});
afterEach(async () => {
  await server.close();
  for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
});

describe("agent -p with hostile text", () => {
  it("neutralises tool traces on stderr; piped stdout gets the answer exactly as written", async () => {
    // The file's first line (shown in the trace) carries the sequences.
    writeFileSync(path.join(cwd, "evil.txt"), `${HOSTILE} inside the file\n`);
    server.enqueue(toolCall("view", { path: path.join(cwd, "evil.txt") }), text(`Answer ${HOSTILE} end`));
    const run = await runAgent(["-p", "read evil.txt", "--allow-all-tools"], { env: agentEnv({ home, baseUrl: server.baseUrl }), cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("inside the file");
    expect(run.stderr).not.toMatch(CONTROL_LEFT);
    expect(run.stderr).not.toContain("PWNED");
    expect(run.stdout).toBe(`Answer ${HOSTILE} end\n`);
  });
});
