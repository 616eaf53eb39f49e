/**
 * Hooks end to end: the real bin/agent -p against the scripted server, with Copilot-format hook files in a
 * temp AGENT_HOME (and a temp repository). Every hook script only echoes, or touches a file in the temp dirs.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { agentEnv, runAgent } from "../support/run-agent.js";
import { startScriptedServer, text, toolCall, type CompletionRequest, type ScriptedServer } from "../support/scripted-server.js";

const hasJq = (() => {
  try {
    execFileSync("jq", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

let server: ScriptedServer;
let home: string;
let cwd: string;

beforeEach(async () => {
  server = await startScriptedServer();
  home = tempDir("hooks-home-");
  cwd = tempDir("hooks-cwd-");
  mkdirSync(path.join(cwd, ".git"));
});
afterEach(async () => {
  await server.close();
});

const env = () => agentEnv({ home, baseUrl: server.baseUrl });
const run = (args: string[]) => runAgent(["-p", ...args], { env: env(), cwd });

function userHooks(name: string, hooks: Record<string, unknown[]>): void {
  mkdirSync(path.join(home, "hooks"), { recursive: true });
  writeFileSync(path.join(home, "hooks", name), JSON.stringify({ version: 1, hooks }));
}
const command = (bash: string, extra: Record<string, unknown> = {}) => ({ type: "command", bash, ...extra });
const contentOf = (message: { content?: unknown } | undefined): string =>
  typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
const toolResult = (request: CompletionRequest | undefined) => contentOf(request?.body.messages.find((message) => message.role === "tool"));
const lastUser = (request: CompletionRequest | undefined) => contentOf(request?.body.messages.filter((message) => message.role === "user").at(-1));

describe("hooks in agent -p", () => {
  it("a preToolUse deny stops the call, even with --allow-all-tools, and the model sees the reason", async () => {
    userHooks("guard.json", { preToolUse: [command(`echo '{"permissionDecision":"deny","permissionDecisionReason":"no shell today"}'`, { matcher: "bash" })] });
    server.enqueue(toolCall("bash", { command: "touch made.txt", description: "Touch" }), text("denied"));
    const result = await run(["make it", "--allow-all-tools"]);
    expect(result.code).toBe(0);
    expect(existsSync(path.join(cwd, "made.txt"))).toBe(false);
    expect(toolResult(server.completionRequests.at(-1))).toBe("Denied by preToolUse hook: no shell today");
  });

  it.skipIf(!hasJq)("a script written for Copilot (jq on toolArgs, as its docs show) works unchanged", async () => {
    const script = path.join(home, "block-rm.sh");
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
    writeFileSync(path.join(cwd, "keep.txt"), "x");
    server.enqueue(toolCall("bash", { command: "rm keep.txt", description: "Remove" }), text("blocked"));
    expect((await run(["remove it", "--allow-all-tools"])).code).toBe(0);
    expect(existsSync(path.join(cwd, "keep.txt"))).toBe(true);
    expect(toolResult(server.completionRequests.at(-1))).toBe("Denied by preToolUse hook: Dangerous command detected");
  });

  it("a hook's allow approves what -p could not ask about, but a deny rule still wins over it", async () => {
    userHooks("allow.json", { preToolUse: [command(`echo '{"permissionDecision":"allow"}'`)] });
    server.enqueue(toolCall("bash", { command: "touch allowed.txt", description: "Touch" }), text("done"));
    expect((await run(["make it"])).code).toBe(0);
    expect(existsSync(path.join(cwd, "allowed.txt"))).toBe(true);

    server.enqueue(toolCall("bash", { command: "touch refused.txt", description: "Touch" }), text("refused"));
    expect((await run(["make it", "--deny-tool", "shell(touch)"])).code).toBe(0);
    expect(existsSync(path.join(cwd, "refused.txt"))).toBe(false);
    expect(toolResult(server.completionRequests.at(-1))).toContain("denied due to the following rules: `shell(touch)`");

    // Like --allow-all-tools, it does not approve what cannot be checked against a deny rule in force.
    server.enqueue(toolCall("bash", { command: "echo '* diff=x' > .gitattributes", description: "Attributes" }), text("refused"));
    expect((await run(["write it", "--deny-tool", "shell(rm)"])).code).toBe(0);
    expect(existsSync(path.join(cwd, ".gitattributes"))).toBe(false);
  });

  it("userPromptSubmitted's additionalContext reaches the model with the prompt", async () => {
    userHooks("context.json", { userPromptSubmitted: [command(`echo '{"additionalContext":"The codename is BLUEBIRD."}'`)] });
    server.enqueue(text("noted"));
    const result = await run(["what is the codename?"]);
    expect(result.code).toBe(0);
    const user = lastUser(server.completionRequests[0]);
    expect(user).toContain("what is the codename?");
    expect(user).toContain("The codename is BLUEBIRD.");
  });

  it("an agentStop block runs exactly one more turn with its reason as the prompt", async () => {
    userHooks("stop.json", {
      agentStop: [command(`if grep -q '"stop_hook_active":false'; then echo '{"decision":"block","reason":"Also list the next steps."}'; fi`)],
    });
    server.enqueue(text("first answer"), text("next steps: none"));
    const result = await run(["do it"]);
    expect(result.code).toBe(0);
    expect(server.completionRequests).toHaveLength(2);
    expect(lastUser(server.completionRequests[1])).toMatch(/\n\nAlso list the next steps\.$/);
    expect(result.stdout).toContain("next steps: none");
  });

  it("a stop hook that always blocks is capped", async () => {
    userHooks("stop.json", { agentStop: [command(`echo '{"decision":"block","reason":"again"}'`)] });
    server.enqueue(text("1"), text("2"), text("3"), text("4"), text("5"));
    expect((await run(["do it"])).code).toBe(0);
    expect(server.completionRequests).toHaveLength(4);
  });

  it("a hanging hook is stopped at its timeout, reported, and the call goes ahead", async () => {
    userHooks("slow.json", { preToolUse: [command("sleep 60", { timeoutSec: 0.5 })] });
    server.enqueue(toolCall("bash", { command: "touch after.txt", description: "Touch" }), text("done"));
    const started = Date.now();
    const result = await run(["make it", "--allow-all-tools"]);
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(existsSync(path.join(cwd, "after.txt"))).toBe(true);
    expect(result.stderr).toContain("timed out after 0.5 s");
  });

  it("repository hooks are skipped in an untrusted folder, with a note on how to trust it; trusted, they run", async () => {
    mkdirSync(path.join(cwd, ".github", "hooks"), { recursive: true });
    writeFileSync(
      path.join(cwd, ".github", "hooks", "repo.json"),
      JSON.stringify({ version: 1, hooks: { userPromptSubmitted: [command("touch repo-hook-ran")] } }),
    );
    server.enqueue(text("hi"));
    const untrusted = await run(["hello"]);
    expect(untrusted.code).toBe(0);
    expect(existsSync(path.join(cwd, "repo-hook-ran"))).toBe(false);
    expect(untrusted.stderr).toContain("this folder is not trusted, so its repository hooks did not run");
    expect(untrusted.stderr).toContain(`"trustedFolders" in ${path.join(home, "config.json")}`);

    writeFileSync(path.join(home, "config.json"), JSON.stringify({ trustedFolders: [cwd] }));
    server.enqueue(text("hi"));
    const trusted = await run(["hello"]);
    expect(trusted.code).toBe(0);
    expect(existsSync(path.join(cwd, "repo-hook-ran"))).toBe(true);
    expect(trusted.stderr).not.toContain("not trusted");
  });

  it("--no-hooks and disableAllHooks turn every hook off", async () => {
    userHooks("mark.json", { userPromptSubmitted: [command("touch user-hook-ran")] });
    server.enqueue(text("hi"));
    await run(["hello", "--no-hooks"]);
    expect(existsSync(path.join(cwd, "user-hook-ran"))).toBe(false);
    writeFileSync(path.join(home, "settings.json"), JSON.stringify({ disableAllHooks: true }));
    server.enqueue(text("hi"));
    await run(["hello"]);
    expect(existsSync(path.join(cwd, "user-hook-ran"))).toBe(false);
  });

  it("hook runs are in the session log, a bad hook file is named, and sessionStart/sessionEnd get Copilot's payloads", async () => {
    const payloads = path.join(cwd, "payloads");
    userHooks("life.json", { sessionStart: [command(`cat >> ${payloads}`)], sessionEnd: [command(`cat >> ${payloads}`)] });
    writeFileSync(
      path.join(home, "hooks", "broken.json"),
      JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: "command", bash: "x", env: { A: 1 } }] } }),
    );
    server.enqueue(text("hi"));
    const result = await run(["hello"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("broken.json: hooks.preToolUse.0.env.A");
    const [start, end] = readFileSync(payloads, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(start).toMatchObject({ source: "new", cwd, initialPrompt: "hello" });
    expect(typeof start?.sessionId).toBe("string");
    expect(String(start?.transcriptPath)).toMatch(/events\.jsonl$/);
    expect(end).toMatchObject({ reason: "complete", sessionId: start?.sessionId });
    const log = readFileSync(String(start?.transcriptPath), "utf8");
    expect(log).toContain('"type":"hook.start"');
    expect(log.indexOf('"hookType":"sessionEnd"')).toBeLessThan(log.indexOf('"type":"session.shutdown"'));
  });
});
