/**
 * providers.json as a Copilot user writes it: several providers at once, on different wires, selected as
 * `provider/id`. The main agent runs on one provider and delegates to a subagent on another in the same
 * session; `/model` offers every configured model and switches mid-session; keys come from a command.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { runAgent } from "../support/run-agent.js";
import { startScriptedServer, text, toolCall, type ScriptedServer } from "../support/scripted-server.js";

let local: ScriptedServer;
let hosted: ScriptedServer;
let home: string;
let cwd: string;

beforeEach(async () => {
  local = await startScriptedServer();
  hosted = await startScriptedServer();
  home = tempDir("providers-home-");
  cwd = tempDir("providers-cwd-");
  writeFileSync(
    path.join(home, "providers.json"),
    JSON.stringify({
      providers: [
        { name: "local", type: "openai", baseUrl: local.baseUrl },
        { name: "claude", type: "anthropic", baseUrl: hosted.baseUrl.replace(/\/v1$/, ""), apiKeyCommand: "echo key-from-command" },
        { name: "gpt", type: "openai", wireApi: "responses", baseUrl: hosted.baseUrl, bearerToken: "token-for-gpt" },
      ],
      models: [
        { id: "coder", provider: "local", wireModel: "qwen3-coder:30b", name: "Local coder" },
        { id: "sonnet", provider: "claude", wireModel: "claude-sonnet-4-5", maxPromptTokens: 150_000 },
        { id: "codex", provider: "gpt", wireModel: "gpt-5-codex" },
      ],
    }),
  );
});
afterEach(async () => {
  await local.close();
  await hosted.close();
});

/** No OPENAI_BASE_URL: providers.json is the only configuration. */
const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH, HOME: home, AGENT_HOME: home, LANG: "C.UTF-8", ...extra });

const events = () => {
  const [id] = readdirSync(path.join(home, "session-state"));
  return readFileSync(path.join(home, "session-state", id as string, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; agentId?: string; data: Record<string, unknown> });
};

describe("providers.json", () => {
  it("runs the main agent on one provider and its subagent on another, each with its wire model and credential", async () => {
    local.enqueue(toolCall("task", { description: "ask claude", prompt: "Say hi.", agent_type: "explore", model: "claude/sonnet" }), text("Claude said hi."));
    hosted.enqueue(text("hi from claude"));
    const run = await runAgent(["-p", "delegate", "--model", "local/coder", "--allow-all-tools"], { env: env(), cwd });
    expect(run.stdout).toBe("Claude said hi.\n");
    // The Anthropic SDK's own notices (a deprecated model) never reach the terminal.
    expect(run.stderr).not.toMatch(/deprecated/);
    expect(local.completionRequests.map((request) => request.body.model)).toEqual(["qwen3-coder:30b", "qwen3-coder:30b"]);
    const [child] = hosted.completionRequests;
    expect(child?.wire).toBe("anthropic");
    expect(child?.body.model).toBe("claude-sonnet-4-5");
    expect(child?.headers["x-api-key"]).toBe("key-from-command");
    expect(child?.headers["x-initiator"]).toBe("sub-agent");
    expect(events().find((event) => event.type === "subagent.started")?.data.model).toBe("claude/sonnet");
    // The task tool's description of `model` is checked against every configured model.
    expect(events().find((event) => event.type === "session.start")?.data.selectedModel).toBe("local/coder");
  });

  it("refuses a subagent model nothing serves, naming the configured ones", async () => {
    local.enqueue(toolCall("task", { description: "x", prompt: "x", agent_type: "explore", model: "nobody/none" }), text("ok"));
    await runAgent(["-p", "delegate", "--model", "local/coder", "--allow-all-tools"], { env: env(), cwd });
    const result = String(local.completionRequests[1]?.body.messages.at(-1)?.content);
    expect(result).toMatch(/nobody\/none.*local\/coder, claude\/sonnet, gpt\/codex/);
  });

  it("switches model mid-session with /model, effort included, recorded as session.model_change", async () => {
    const first = await runAgent(["-p", "/model gpt/codex high", "--model", "local/coder"], { env: env(), cwd });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Model set to gpt\/codex \(reasoning effort high\)/);
    const change = events().find((event) => event.type === "session.model_change");
    expect(change?.data).toMatchObject({ previousModel: "local/coder", newModel: "gpt/codex", reasoningEffort: "high" });
  });

  it("lists every configured model for /model, and sends the bearer token and the effort on the Responses wire", async () => {
    hosted.enqueue(text("codex here"));
    const run = await runAgent(["-p", "hi", "--model", "gpt/codex", "--reasoning-effort", "low"], { env: env(), cwd });
    expect(run.stdout).toBe("codex here\n");
    const [request] = hosted.completionRequests;
    expect(request?.wire).toBe("responses");
    expect(request?.headers.authorization).toBe("Bearer token-for-gpt");
    expect(request?.wireBody).toMatchObject({ model: "gpt-5-codex", reasoning: { effort: "low", summary: "auto" }, store: false });
    const unknown = await runAgent(["-p", "/model nobody/none"], { env: env({ COPILOT_MODEL: "local/coder" }), cwd });
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/local\/coder, claude\/sonnet, gpt\/codex/);
  });

  it("says which models there are when none is selected, and what is wrong with a bad file", async () => {
    const none = await runAgent(["-p", "hi"], { env: env(), cwd });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/No model is selected.*providers\.json offers: local\/coder, claude\/sonnet, gpt\/codex/s);
    writeFileSync(path.join(home, "bad.json"), JSON.stringify({ providers: [{ name: "a", baseUrl: "ftp://x" }], models: [{ id: "m", provider: "b" }] }));
    const bad = await runAgent(["-p", "hi", "--model", "a/m"], { env: env({ COPILOT_PROVIDERS_CONFIG: path.join(home, "bad.json") }), cwd });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.json has invalid providers:[\s\S]*providers\.0\.baseUrl/);
    const missing = await runAgent(["-p", "hi"], { env: env({ COPILOT_PROVIDERS_CONFIG: path.join(home, "nope.json") }), cwd });
    expect(missing.stderr).toMatch(/COPILOT_PROVIDERS_CONFIG names .*nope\.json, which does not exist/);
  });
});
