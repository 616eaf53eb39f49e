/**
 * Hooks end to end: the real bin/agent -p against the scripted server, with Copilot-format hook files in a
 * temp AGENT_HOME (and a temp repository). Every hook script only echoes, or touches a file in the temp dirs.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall, type CompletionRequest } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const hasJq = (() => {
  try {
    execFileSync("jq", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

const ws = useE2eWorkspace({ prefix: "hooks" });
beforeEach(() => {
  mkdirSync(path.join(ws.cwd, ".git"));
});

const run = (args: string[]) => runAgent(["-p", ...args], { env: ws.env(), cwd: ws.cwd });

function userHooks(name: string, hooks: Record<string, unknown[]>): void {
  mkdirSync(path.join(ws.home, "hooks"), { recursive: true });
  writeFileSync(path.join(ws.home, "hooks", name), JSON.stringify({ version: 1, hooks }));
}
const command = (bash: string, extra: Record<string, unknown> = {}) => ({ type: "command", bash, ...extra });
const contentOf = (message: { content?: unknown } | undefined): string =>
  typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
const toolResult = (request: CompletionRequest | undefined) => contentOf(request?.body.messages.find((message) => message.role === "tool"));
const lastUser = (request: CompletionRequest | undefined) => contentOf(request?.body.messages.filter((message) => message.role === "user").at(-1));

describe("hooks in agent -p", () => {
  it("a preToolUse deny stops the call, even with --allow-all-tools, and the model sees the reason", async () => {
    userHooks("guard.json", { preToolUse: [command(`echo '{"permissionDecision":"deny","permissionDecisionReason":"no shell today"}'`, { matcher: "bash" })] });
    ws.server.enqueue(toolCall("bash", { command: "touch made.txt", description: "Touch" }), text("denied"));
    const result = await run(["make it", "--allow-all-tools"]);
    expect(result.code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "made.txt"))).toBe(false);
    expect(toolResult(ws.server.completionRequests.at(-1))).toBe("Denied by preToolUse hook: no shell today");
  });

  it.skipIf(!hasJq)("a script written for Copilot (jq on toolArgs, as its docs show) works unchanged", async () => {
    const script = path.join(ws.home, "block-rm.sh");
    writeFileSync(
      script,
      [
        "#!/bin/bash",
        "INPUT=$(cat)",
        "COMMAND=$(echo \"$INPUT\" | jq -r '.toolArgs' | jq -r '.command')",
        'if echo "$COMMAND" | grep -qE "rm "; then',
        '  echo \'{"permissionDecision":"deny","permissionDecisionReason":"Dangerous command detected"}\'',
        "fi",
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    userHooks("copilot.json", { preToolUse: [command(script)] });
    writeFileSync(path.join(ws.cwd, "keep.txt"), "x");
    ws.server.enqueue(toolCall("bash", { command: "rm keep.txt", description: "Remove" }), text("blocked"));
    expect((await run(["remove it", "--allow-all-tools"])).code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "keep.txt"))).toBe(true);
    expect(toolResult(ws.server.completionRequests.at(-1))).toBe("Denied by preToolUse hook: Dangerous command detected");
  });

  it("a hook's allow approves what -p could not ask about, but a deny rule still wins over it", async () => {
    userHooks("allow.json", { preToolUse: [command(`echo '{"permissionDecision":"allow"}'`)] });
    ws.server.enqueue(toolCall("bash", { command: "touch allowed.txt", description: "Touch" }), text("done"));
    expect((await run(["make it"])).code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "allowed.txt"))).toBe(true);

    ws.server.enqueue(toolCall("bash", { command: "touch refused.txt", description: "Touch" }), text("refused"));
    expect((await run(["make it", "--deny-tool", "shell(touch)"])).code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "refused.txt"))).toBe(false);
    expect(toolResult(ws.server.completionRequests.at(-1))).toContain("denied due to the following rules: `shell(touch)`");

    // Like --allow-all-tools, it does not approve what cannot be checked against a deny rule in force.
    ws.server.enqueue(toolCall("bash", { command: "echo '* diff=x' > .gitattributes", description: "Attributes" }), text("refused"));
    expect((await run(["write it", "--deny-tool", "shell(rm)"])).code).toBe(0);
    expect(existsSync(path.join(ws.cwd, ".gitattributes"))).toBe(false);
  });

  it("userPromptSubmitted's additionalContext reaches the model with the prompt", async () => {
    userHooks("context.json", { userPromptSubmitted: [command(`echo '{"additionalContext":"The codename is BLUEBIRD."}'`)] });
    ws.server.enqueue(text("noted"));
    const result = await run(["what is the codename?"]);
    expect(result.code).toBe(0);
    const user = lastUser(ws.server.completionRequests[0]);
    expect(user).toContain("what is the codename?");
    expect(user).toContain("The codename is BLUEBIRD.");
  });

  it("an agentStop block runs exactly one more turn with its reason as the prompt", async () => {
    userHooks("stop.json", {
      agentStop: [command(`if grep -q '"stop_hook_active":false'; then echo '{"decision":"block","reason":"Also list the next steps."}'; fi`)],
    });
    ws.server.enqueue(text("first answer"), text("next steps: none"));
    const result = await run(["do it"]);
    expect(result.code).toBe(0);
    expect(ws.server.completionRequests).toHaveLength(2);
    expect(lastUser(ws.server.completionRequests[1])).toMatch(/\n\nAlso list the next steps\.$/);
    expect(result.stdout).toContain("next steps: none");
  });

  it("a stop hook that always blocks is capped", async () => {
    userHooks("stop.json", { agentStop: [command(`echo '{"decision":"block","reason":"again"}'`)] });
    ws.server.enqueue(text("1"), text("2"), text("3"), text("4"), text("5"));
    expect((await run(["do it"])).code).toBe(0);
    expect(ws.server.completionRequests).toHaveLength(4);
  });

  it("a hanging preToolUse hook is stopped at its timeout and the call is denied: a broken policy fails closed", async () => {
    // It would run for an hour: the run ends only because the hook's timeout stopped it.
    userHooks("slow.json", { preToolUse: [command("sleep 3600", { timeoutSec: 0.5 })] });
    ws.server.enqueue(toolCall("bash", { command: "touch after.txt", description: "Touch" }), text("done"));
    const result = await run(["make it", "--allow-all-tools"]);
    expect(result.code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "after.txt"))).toBe(false);
    expect(result.stderr).toContain("timed out after 0.5 s");
    expect(result.stderr).toContain("the hook failed, so the tool call is denied");
    expect(toolResult(ws.server.completionRequests.at(-1))).toBe("Denied by preToolUse hook: the hook failed: timed out after 0.5 s and was stopped");
  });

  it("a preToolUse hook that exits 1 or prints garbage denies (the model and the person see why); policyHooksFailOpen lets the call through", async () => {
    userHooks("broken.json", { preToolUse: [command("echo 'policy service unreachable' >&2; exit 1")] });
    ws.server.enqueue(toolCall("bash", { command: "touch first.txt", description: "Touch" }), text("denied"));
    const denied = await run(["make it", "--allow-all-tools"]);
    expect(denied.code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "first.txt"))).toBe(false);
    expect(toolResult(ws.server.completionRequests.at(-1))).toBe("Denied by preToolUse hook: the hook failed: exited with code 1: policy service unreachable");
    expect(denied.stderr).toContain("exited with code 1: policy service unreachable; the hook failed, so the tool call is denied");

    userHooks("broken.json", { preToolUse: [command("printf 'garbage\\001\\002'")] });
    ws.server.enqueue(toolCall("bash", { command: "touch second.txt", description: "Touch" }), text("denied"));
    await run(["make it", "--allow-all-tools"]);
    expect(existsSync(path.join(ws.cwd, "second.txt"))).toBe(false);
    expect(toolResult(ws.server.completionRequests.at(-1))).toBe("Denied by preToolUse hook: the hook failed: printed output that is not a JSON object");

    writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify({ policyHooksFailOpen: true }));
    ws.server.enqueue(toolCall("bash", { command: "touch third.txt", description: "Touch" }), text("done"));
    const open = await run(["make it", "--allow-all-tools"]);
    expect(open.code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "third.txt"))).toBe(true);
    expect(open.stderr).toContain("printed output that is not a JSON object; it was ignored");
  });

  it("a permissionRequest hook that breaks denies in place of the dialog; other events' failures are reported and the run goes on", async () => {
    userHooks("broken.json", {
      permissionRequest: [command("exit 5")],
      userPromptSubmitted: [command("exit 9")],
      postToolUse: [command("echo not json; exit 4")],
    });
    ws.server.enqueue(toolCall("bash", { command: "touch asked.txt", description: "Touch" }), text("it was refused"));
    const result = await run(["make it"]);
    expect(result.code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "asked.txt"))).toBe(false);
    expect(toolResult(ws.server.completionRequests.at(-1))).toBe("Denied by permissionRequest hook: the hook failed: exited with code 5");
    expect(result.stderr).toContain("The userPromptSubmitted hook `exit 9`");
    expect(result.stderr).toContain("exited with code 9; it was ignored");
    expect(result.stdout).toContain("it was refused");
  });

  it("repository hooks are skipped in an untrusted folder, with a note on how to trust it; trusted, they run", async () => {
    mkdirSync(path.join(ws.cwd, ".github", "hooks"), { recursive: true });
    writeFileSync(
      path.join(ws.cwd, ".github", "hooks", "repo.json"),
      JSON.stringify({ version: 1, hooks: { userPromptSubmitted: [command("touch repo-hook-ran")] } }),
    );
    ws.server.enqueue(text("hi"));
    const untrusted = await run(["hello"]);
    expect(untrusted.code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "repo-hook-ran"))).toBe(false);
    expect(untrusted.stderr).toContain(`${ws.cwd} is not a trusted folder, so its repository hooks did not run`);
    expect(untrusted.stderr).toContain(`"trustedFolders" in ${path.join(ws.home, "config.json")}`);

    writeFileSync(path.join(ws.home, "config.json"), JSON.stringify({ trustedFolders: [ws.cwd] }));
    ws.server.enqueue(text("hi"));
    const trusted = await run(["hello"]);
    expect(trusted.code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "repo-hook-ran"))).toBe(true);
    expect(trusted.stderr).not.toContain("not trusted");
  });

  it("--no-hooks and disableAllHooks turn every hook off", async () => {
    userHooks("mark.json", { userPromptSubmitted: [command("touch user-hook-ran")] });
    ws.server.enqueue(text("hi"));
    await run(["hello", "--no-hooks"]);
    expect(existsSync(path.join(ws.cwd, "user-hook-ran"))).toBe(false);
    writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify({ disableAllHooks: true }));
    ws.server.enqueue(text("hi"));
    await run(["hello"]);
    expect(existsSync(path.join(ws.cwd, "user-hook-ran"))).toBe(false);
  });

  it("hook runs are in the session log, a bad hook file is named, and sessionStart/sessionEnd get Copilot's payloads", async () => {
    const payloads = path.join(ws.cwd, "payloads");
    userHooks("life.json", { sessionStart: [command(`cat >> ${payloads}`)], sessionEnd: [command(`cat >> ${payloads}`)] });
    writeFileSync(
      path.join(ws.home, "hooks", "broken.json"),
      JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: "command", bash: "x", env: { A: 1 } }] } }),
    );
    ws.server.enqueue(text("hi"));
    const result = await run(["hello"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("broken.json: hooks.preToolUse.0.env.A");
    const [start, end] = readFileSync(payloads, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(start).toMatchObject({ source: "new", cwd: ws.cwd, initialPrompt: "hello" });
    expect(typeof start?.sessionId).toBe("string");
    expect(String(start?.transcriptPath)).toMatch(/events\.jsonl$/);
    expect(end).toMatchObject({ reason: "complete", sessionId: start?.sessionId });
    const log = readFileSync(String(start?.transcriptPath), "utf8");
    expect(log).toContain('"type":"hook.start"');
    expect(log.indexOf('"hookType":"sessionEnd"')).toBeLessThan(log.indexOf('"type":"session.shutdown"'));
  });
});
