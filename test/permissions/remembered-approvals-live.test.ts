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

describe("remembered approvals while a session runs", () => {
  it("a reset from another process takes effect at the next call", async () => {
    const harness = await harnesses.start({ interactive: true });
    writeConfig(harness.home, harness.cwd, ["touch"]);
    const asked = refuseAll(harness);
    await runTouch(harness, "a");
    expect(asked).toHaveLength(0);
    forgetRememberedApprovals(harness.home, harness.cwd);
    await runTouch(harness, "b");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.data.permissionRequest).toMatchObject({ kind: "shell", fullCommandText: "touch b" });
  });

  it("an approval remembered by another session applies without a restart", async () => {
    const harness = await harnesses.start({ interactive: true });
    const asked = refuseAll(harness);
    await runTouch(harness, "a");
    expect(asked).toHaveLength(1);
    const granted = emptyApprovals();
    granted.commands.add("touch");
    rememberApprovals(harness.home, harness.cwd, granted);
    await runTouch(harness, "b");
    expect(asked).toHaveLength(1);
  });

  it("a hand edit in place (same size, same file) is seen too", async () => {
    const harness = await harnesses.start({ interactive: true });
    writeConfig(harness.home, harness.cwd, ["touch"]);
    const asked = refuseAll(harness);
    await runTouch(harness, "a");
    expect(asked).toHaveLength(0);
    writeConfig(harness.home, harness.cwd, ["tauch"]);
    await runTouch(harness, "b");
    expect(asked).toHaveLength(1);
  });
});
