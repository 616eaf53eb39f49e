/**
 * A policy hook (preToolUse, permissionRequest) that breaks denies the call: every failure shape (a bad exit
 * code, a crash, binary or unparseable output, an answer the event does not understand, a timeout, a command
 * that cannot start, a client hook that throws) and the setting that fails open instead. The documented
 * answers (exit 0 with nothing or a JSON decision, exit 2) still work as before.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { permissionDecision, toolDecision } from "../../src/hooks/decisions.js";
import { HookSet, type HookReporter } from "../../src/hooks/hook-set.js";
import type { HookDefinition } from "../../src/hooks/load-hooks.js";
import type { HookEventName } from "../../src/hooks/hook-schema.js";
import { tempDir } from "../support/engine-harness.js";
import { hookDefinition } from "../support/hook-definition.js";

const hook = (command: string, extra: Partial<HookDefinition> = {}): HookDefinition => hookDefinition(command, extra, "/test/policy.json");

function recorder(): HookReporter & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, start: () => undefined, end: () => undefined, warn: (message) => warnings.push(message) };
}

async function decide(event: HookEventName, definition: HookDefinition, failOpen = false) {
  const reporter = recorder();
  const set = new HookSet([{ ...definition, event }], tempDir("policy-hook-"), [], { failOpen });
  const answers = await set.run(event, { toolName: "bash" }, reporter, { matchValue: "bash" });
  return { tool: toolDecision(answers), permission: permissionDecision(answers), warnings: reporter.warnings };
}

const BROKEN: [string, HookDefinition, RegExp][] = [
  ["exits 1", hook("echo 'policy server down' >&2; exit 1"), /exited with code 1: policy server down/],
  ["exits 127 (a command that is not there)", hook("no-such-policy-command-xyz"), /exited with code 127/],
  ["crashes (killed by a signal)", hook("kill -SEGV $$"), /killed by SIGSEGV/],
  ["prints binary", hook("printf '\\x00\\x01\\x02\\xff'"), /not a JSON object/],
  ["prints plain text", hook("echo allow"), /not a JSON object/],
  ["prints broken JSON", hook("echo '{\"permissionDecision\": '"), /not valid JSON/],
  ["prints a JSON array", hook("echo '[1,2]'"), /not a JSON object/],
  ["answers what the event does not understand", hook(`echo '{"permissionDecision":"maybe"}'`), /does not understand/],
  ["times out", hook("sleep 30", { timeoutMs: 200 }), /timed out after 0.2 s/],
  ["cannot start (its cwd is gone)", hook("true", { cwd: path.join(tempDir("policy-gone-"), "missing") }), /could not start/],
];

describe("a policy hook that breaks", () => {
  for (const event of ["preToolUse", "permissionRequest"] as const) {
    for (const [shape, definition, problem] of BROKEN) {
      it(`${event}: ${shape} → denied, saying the hook failed`, async () => {
        const { tool, permission, warnings } = await decide(event, definition);
        expect(tool.decision).toBe("deny");
        expect(tool.reason).toMatch(/^the hook failed: /);
        expect(tool.reason).toMatch(problem);
        expect(permission).toEqual({ approved: false, reason: tool.reason });
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(problem);
        expect(warnings[0]).toContain("the hook failed, so the tool call is denied");
        expect(warnings[0]).toContain("policyHooksFailOpen");
      });
    }
  }

  it("fails open with policyHooksFailOpen: reported, and the call goes on as if the hook said nothing", async () => {
    for (const [, definition, problem] of BROKEN) {
      const { tool, permission, warnings } = await decide("preToolUse", definition, true);
      expect(tool).toEqual({});
      expect(permission).toBeUndefined();
      expect(warnings[0]).toMatch(problem);
      expect(warnings[0]).toContain("it was ignored");
    }
  });

  it("stops the hooks after it: a later hook's allow does not win over the failure", async () => {
    const set = new HookSet([hook("exit 3"), hook(`echo '{"permissionDecision":"allow"}'`)], tempDir("policy-order-"));
    const answers = await set.run("preToolUse", {}, recorder(), { until: (answer) => answer.failed !== undefined });
    expect(answers).toHaveLength(1);
    expect(toolDecision(answers).decision).toBe("deny");
    const both = await set.run("preToolUse", {}, recorder());
    expect(toolDecision(both)).toMatchObject({ decision: "deny", reason: "the hook failed: exited with code 3" });
  });

  it("a client's hook (the SDK's) that throws or hangs denies too", async () => {
    const throwing = hook("the client's preToolUse hook", {
      invoke: () => Promise.reject(new Error("handler crashed")),
    });
    expect((await decide("preToolUse", throwing)).tool).toEqual({ decision: "deny", reason: "the hook failed: could not start: handler crashed" });
    const hanging = hook("the client's preToolUse hook", { timeoutMs: 100, invoke: () => new Promise(() => undefined) });
    expect((await decide("preToolUse", hanging)).tool.reason).toMatch(/^the hook failed: timed out/);
  });
});

describe("a policy hook that works", () => {
  it("allows, denies, asks and says nothing as before", async () => {
    expect((await decide("preToolUse", hook(`echo '{"permissionDecision":"allow"}'`))).tool).toEqual({ decision: "allow" });
    expect((await decide("preToolUse", hook(`echo '{"permissionDecision":"deny","permissionDecisionReason":"no"}'`))).tool).toEqual({
      decision: "deny",
      reason: "no",
    });
    expect((await decide("preToolUse", hook(`echo '{"permissionDecision":"ask"}'`))).tool).toEqual({ decision: "ask" });
    const silent = await decide("preToolUse", hook("true"));
    expect(silent.tool).toEqual({});
    expect(silent.warnings).toEqual([]);
    // Exit 2 is the documented way to block: its stderr is the reason, and what it printed does not matter.
    expect((await decide("preToolUse", hook("echo text; echo 'blocked by policy' >&2; exit 2"))).tool).toEqual({
      decision: "deny",
      reason: "blocked by policy",
    });
    expect((await decide("permissionRequest", hook(`echo '{"permissionDecision":"allow"}'`))).permission).toEqual({ approved: true });
    // Whitespace alone is nothing said.
    expect((await decide("preToolUse", hook("printf '\\n  \\n'"))).tool).toEqual({});
  });
});
