/** `agent --reset-allowed-tools`: a remembered "always in this directory" approval can be revoked without editing JSON. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { agentEnv, runAgent } from "../support/run-agent.js";
import { startScriptedServer, text, toolCall, type ScriptedServer } from "../support/scripted-server.js";

let server: ScriptedServer;
let home: string;
let parent: string;
let cwd: string;
let other: string;
const configFile = () => path.join(home, "permissions-config.json");

beforeEach(async () => {
  server = await startScriptedServer();
  home = tempDir("reset-home-");
  parent = tempDir("reset-ws-");
  cwd = path.join(parent, "project");
  mkdirSync(cwd);
  other = tempDir("reset-other-");
  writeFileSync(
    configFile(),
    JSON.stringify({
      locations: {
        [cwd]: { tool_approvals: [{ kind: "commands", commandIdentifiers: ["touch"] }] },
        [parent]: { tool_approvals: [{ kind: "urls", origins: ["https://example.com"] }] },
        [other]: { tool_approvals: [{ kind: "commands", commandIdentifiers: ["git add"] }] },
      },
    }),
  );
});
afterEach(async () => {
  await server.close();
});

const env = () => agentEnv({ home, baseUrl: server.baseUrl });
const touchRun = () => {
  server.enqueue(toolCall("bash", { command: "touch marker.txt", description: "Create a marker" }), text("Done."));
  return runAgent(["-p", "make the marker"], { env: env(), cwd });
};

describe("agent --reset-allowed-tools", () => {
  it("forgets this directory's remembered approvals, names the parent's that still apply, keeps the others", async () => {
    const run = await runAgent(["--reset-allowed-tools"], { env: env(), cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Forgot the approvals remembered for ${cwd}:`);
    expect(run.stdout).toContain("commands: touch");
    expect(run.stdout).toContain(`Approvals remembered for ${parent} still apply here`);
    const locations = (JSON.parse(readFileSync(configFile(), "utf8")) as { locations: Record<string, unknown> }).locations;
    expect(Object.keys(locations).sort()).toEqual([other, parent].sort());

    const again = await runAgent(["--reset-allowed-tools"], { env: env(), cwd });
    expect(again.stdout).toContain(`No approvals were remembered for ${cwd}.`);
  });

  it("after the reset a remembered command asks again (denied in -p)", async () => {
    const before = await touchRun();
    expect(before.code).toBe(0);
    expect(existsSync(path.join(cwd, "marker.txt"))).toBe(true);

    await runAgent(["--reset-allowed-tools", "-C", cwd], { env: env(), cwd: other });
    const locations = (JSON.parse(readFileSync(configFile(), "utf8")) as { locations: Record<string, unknown> }).locations;
    expect(locations[cwd]).toBeUndefined();
    expect(locations[other]).toBeDefined();

    server.enqueue(toolCall("bash", { command: "touch second.txt", description: "Create a marker" }), text("Done."));
    const denied = await runAgent(["-p", "make another"], { env: env(), cwd });
    expect(denied.code).toBe(0);
    expect(existsSync(path.join(cwd, "second.txt"))).toBe(false);
    expect(denied.stderr).toMatch(/denied|no interactive user/i);
  });

  it("leaves a permissions-config.json that is not JSON alone and says so", async () => {
    writeFileSync(configFile(), "{ not json");
    const run = await runAgent(["--reset-allowed-tools"], { env: env(), cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("could not update the remembered approvals");
    expect(readFileSync(configFile(), "utf8")).toBe("{ not json");
  });
});
