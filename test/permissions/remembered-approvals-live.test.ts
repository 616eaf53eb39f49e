/**
 * A running session sees what happens to permissions-config.json meanwhile: `agent --reset-allowed-tools` in
 * another terminal takes a remembered approval away at the next decision, an "always" given in another
 * session adds one, and a hand edit counts too.
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { forgetRememberedApprovals } from "../../src/permissions/forget-approvals.js";
import { emptyApprovals } from "../../src/permissions/approvals.js";
import { permissionsConfigPath, rememberApprovals } from "../../src/permissions/permissions-config.js";
import type { SessionEventOf } from "../../src/protocol/events/index.js";
import { type Harness } from "../support/engine-harness.js";
import { useHarnesses } from "../support/harnesses.js";
import { text, toolCall } from "../support/scripted-server.js";

const harnesses = useHarnesses();

/** Refuses every question, and keeps them. */
function refuseAll(harness: Harness): SessionEventOf<"permission.requested">[] {
  const asked: SessionEventOf<"permission.requested">[] = [];
  harness.session.subscribe((event) => {
    if (event.type !== "permission.requested") return;
    asked.push(event);
    queueMicrotask(() => harness.session.respondToPermission(event.data.requestId, { kind: "deny" }));
  });
  return asked;
}

/** Writes the file in place, as a person editing it would. */
function writeConfig(home: string, cwd: string, commands: string[]): void {
  writeFileSync(
    permissionsConfigPath(home),
    JSON.stringify({ locations: { [cwd]: { tool_approvals: [{ kind: "commands", commandIdentifiers: commands }] } } }),
  );
}

async function runTouch(harness: Harness, name: string): Promise<void> {
  harness.server.enqueue(toolCall("bash", { command: `touch ${name}`, description: "Touch" }), text("ok"));
  await harness.session.send(`touch ${name}`);
}

/**
 * Runs `touch a`, changes the file as `change` does, runs `touch b`: how many times the session asked before
 * and after the change (every question refused), and the questions.
 */
async function aroundChange(remembered: string[], change: (harness: Harness) => void) {
  const harness = await harnesses.start({ interactive: true });
  if (remembered.length > 0) writeConfig(harness.home, harness.cwd, remembered);
  const asked = refuseAll(harness);
  await runTouch(harness, "a");
  const before = asked.length;
  change(harness);
  await runTouch(harness, "b");
  return { before, after: asked.length - before, asked };
}

describe("remembered approvals while a session runs", () => {
  it("a reset from another process takes effect at the next call", async () => {
    const seen = await aroundChange(["touch"], (harness) => forgetRememberedApprovals(harness.home, harness.cwd));
    expect([seen.before, seen.after]).toEqual([0, 1]);
    expect(seen.asked[0]?.data.permissionRequest).toMatchObject({ kind: "shell", fullCommandText: "touch b" });
  });

  it("an approval remembered by another session applies without a restart", async () => {
    const granted = emptyApprovals();
    granted.commands.add("touch");
    const seen = await aroundChange([], (harness) => rememberApprovals(harness.home, harness.cwd, granted));
    expect([seen.before, seen.after]).toEqual([1, 0]);
  });

  it("a hand edit in place (same size, same file) is seen too", async () => {
    const seen = await aroundChange(["touch"], (harness) => writeConfig(harness.home, harness.cwd, ["tauch"]));
    expect([seen.before, seen.after]).toEqual([0, 1]);
  });
});
