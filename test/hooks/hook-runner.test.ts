/** The hook runner and the hook set: timeout, exit 2, bad JSON, env, cwd, matcher, order. */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isDeny, toolDecision, stopBlock, additionalContext, promptDecision } from "../../src/hooks/decisions.js";
import { HookSet, type HookReporter } from "../../src/hooks/hook-set.js";
import type { HookDefinition } from "../../src/hooks/load-hooks.js";
import { runHookCommand } from "../../src/hooks/run-hook.js";
import { tempDir } from "../support/engine-harness.js";
import { hookDefinition } from "../support/hook-definition.js";

const hook = (command: string, extra: Partial<HookDefinition> = {}): HookDefinition => hookDefinition(command, extra);

function recorder(): HookReporter & { events: string[]; warnings: string[] } {
  const events: string[] = [];
  const warnings: string[] = [];
  return {
    events,
    warnings,
    start: (data) => events.push(`start ${data.hookType}`),
    end: (data) => events.push(`end ${data.hookType} ${data.success}`),
    warn: (message) => warnings.push(message),
  };
}

describe("runHookCommand", () => {
  it("gives the payload on stdin and parses a JSON answer", async () => {
    const run = await runHookCommand(
      hook(`node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify({seen:JSON.parse(s).toolName})))'`),
      { toolName: "bash" },
      tempDir("hook-"),
    );
    expect(run.exitCode).toBe(0);
    expect(run.json).toEqual({ seen: "bash" });
  });

  it("kills a hanging hook (and its children) at its timeout", async () => {
    const dir = tempDir("hook-hang-");
    // It would run for an hour: the call returns only because the timeout ended the hook's whole group.
    const run = await runHookCommand(hook(`sleep 3600 & sleep 3600; touch ${path.join(dir, "late")}`, { timeoutMs: 300 }), {}, dir);
    expect(run.timedOut).toBe(true);
    expect(existsSync(path.join(dir, "late"))).toBe(false);
  });

  it("keeps stderr and the exit code", async () => {
    const run = await runHookCommand(hook("echo 'not allowed here' >&2; exit 2"), {}, tempDir("hook-"));
    expect(run.exitCode).toBe(2);
    expect(run.stderr.trim()).toBe("not allowed here");
  });

  it("marks broken JSON and leaves plain text alone", async () => {
    expect((await runHookCommand(hook("echo '{not json'"), {}, tempDir("hook-"))).badJson).toBe(true);
    const plain = await runHookCommand(hook("echo hello"), {}, tempDir("hook-"));
    expect(plain.badJson).toBeUndefined();
    expect(plain.json).toBeUndefined();
  });

  it("runs with the hook's env and cwd", async () => {
    const dir = tempDir("hook-cwd-");
    mkdirSync(path.join(dir, "sub"));
    const run = await runHookCommand(
      hook('printf \'{"where":"%s","value":"%s"}\' "$(pwd)" "$HOOK_VALUE"', { cwd: path.join(dir, "sub"), env: { HOOK_VALUE: "42" } }),
      {},
      dir,
    );
    expect(run.json).toEqual({ where: path.join(dir, "sub"), value: "42" });
  });

  it("reports a cwd that does not exist instead of throwing", async () => {
    const run = await runHookCommand(hook("true", { cwd: "/nonexistent/hook/dir" }), {}, tempDir("hook-"));
    expect(run.startError).toBeTruthy();
  });
});

describe("HookSet", () => {
  it("runs only the hooks whose matcher matches, in order, and stops at a deny", async () => {
    const dir = tempDir("hook-set-");
    const log = path.join(dir, "log");
    const set = new HookSet(
      [
        hook(`echo first >> ${log}`, { matcher: /^(?:bash|view)$/ }),
        hook(`echo other >> ${log}`, { matcher: /^(?:edit)$/ }),
        hook(`echo '{"permissionDecision":"deny","permissionDecisionReason":"no"}'`),
        hook(`echo after >> ${log}`),
      ],
      dir,
    );
    const reporter = recorder();
    const answers = await set.run("preToolUse", { toolName: "bash" }, reporter, { matchValue: "bash", until: isDeny });
    expect(toolDecision(answers)).toEqual({ decision: "deny", reason: "no" });
    expect(readFileSync(log, "utf8")).toBe("first\n");
    expect(reporter.events).toEqual(["start preToolUse", "end preToolUse true", "start preToolUse", "end preToolUse true"]);
  });

  it("turns exit 2 into a deny with stderr as the reason", async () => {
    const answers = await new HookSet([hook("echo 'secrets stay' >&2; exit 2")], tempDir("h-")).run("preToolUse", {}, recorder());
    expect(toolDecision(answers)).toEqual({ decision: "deny", reason: "secrets stay" });
  });

  it("warns about a failing, garbage-printing or nonsense-answering hook of an event that is not a policy, and applies the default", async () => {
    const reporter = recorder();
    const event = { event: "userPromptSubmitted" as const };
    const set = new HookSet(
      [hook("exit 7", event), hook("echo '{oops'", event), hook(`echo '{"decision":"maybe"}'`, event), hook("echo plain words", event)],
      tempDir("h-"),
    );
    const answers = await set.run("userPromptSubmitted", {}, reporter);
    expect(promptDecision(answers)).toEqual({});
    expect(answers.some((answer) => answer.failed !== undefined)).toBe(false);
    // Plain text is not a failure of an event that is not a policy (as before); the other three are reported.
    expect(reporter.warnings).toHaveLength(3);
    expect(reporter.warnings[0]).toContain("exited with code 7");
    expect(reporter.warnings[1]).toContain("not valid JSON");
    expect(reporter.warnings[2]).toContain("does not understand");
    for (const warning of reporter.warnings) expect(warning).toContain("it was ignored");
  });

  it("reads additionalContext and stop blocks", async () => {
    const set = new HookSet(
      [
        hook(`echo '{"additionalContext":"A"}'`, { event: "userPromptSubmitted" }),
        hook(`echo '{"additionalContext":"B"}'`, { event: "userPromptSubmitted" }),
        hook(`echo '{"decision":"block","reason":"run the tests"}'`, { event: "agentStop" }),
      ],
      tempDir("h-"),
    );
    expect(additionalContext(await set.run("userPromptSubmitted", {}, recorder()))).toBe("A\n\nB");
    expect(stopBlock(await set.run("agentStop", {}, recorder()))).toBe("run the tests");
    expect(set.has("sessionEnd")).toBe(false);
  });
});
