/**
 * The real bin/agent on each wire, configured as a Copilot user would (COPILOT_PROVIDER_TYPE=anthropic,
 * COPILOT_PROVIDER_WIRE_API=responses): a streamed answer, a tool call's round trip, and a run killed with
 * SIGKILL mid-stream then resumed. Any other end-to-end test runs on a wire with AGENT_TEST_WIRE.
 */
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ChildProcess } from "node:child_process";
import { describe, expect, it } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { collect, runAgent, startAgent } from "../support/run-agent.js";
import { text, toolCall, WIRES } from "../support/scripted-server.js";
import { wireEnv } from "../support/test-wire.js";

const ws = useE2eWorkspace({ prefix: "wires" });

function waitForOutput(child: ChildProcess, needle: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      if (seen.includes(needle)) resolve();
    });
    child.on("exit", () => reject(new Error(`agent exited before printing ${needle}`)));
  });
}

describe.each(WIRES)("bin/agent on the %s wire", (wire) => {
  const env = () => ws.env(wireEnv(wire));

  it("streams an answer, and records the wire's endpoint in its usage", async () => {
    ws.server.enqueue(text("Hello over the wire.", { chunkSize: 3 }));
    const run = await runAgent(["-p", "hi", "--output-format", "json"], { env: env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    expect(events.find((event) => event.type === "assistant.message")?.data.content).toBe("Hello over the wire.");
    const endpoint = { chat: "/chat/completions", responses: "/responses", anthropic: "/v1/messages" }[wire];
    expect(events.find((event) => event.type === "assistant.usage")?.data.apiEndpoint).toBe(endpoint);
    expect(ws.server.completionRequests[0]?.wire).toBe(wire);
    // openai's client names the User-Agent after its class (the program's script, whose local names are shortened, must
    // not rename it), the Anthropic SDK's is fixed.
    const client = { chat: "OpenAI", responses: "OpenAI", anthropic: "Anthropic" }[wire];
    expect(String(ws.server.completionRequests[0]?.headers["user-agent"])).toMatch(new RegExp(`^${client}/JS \\d`));
  });

  it("runs a tool call and sends its result back", async () => {
    writeFileSync(path.join(ws.cwd, "fruit.txt"), "kiwi\n");
    ws.server.enqueue(toolCall("view", { path: path.join(ws.cwd, "fruit.txt") }), text("It is a kiwi."));
    const run = await runAgent(["-p", "what fruit?", "--allow-all-tools", "-s"], { env: env(), cwd: ws.cwd });
    expect(run.stdout).toBe("It is a kiwi.\n");
    const tool = ws.server.completionRequests[1]?.body.messages.find((message) => message.role === "tool");
    expect(String(tool?.content)).toContain("kiwi");
  });

  it("resumes a run killed with SIGKILL mid-stream", async () => {
    ws.server.enqueue({ kind: "stream", text: "A long answer that is never finished", chunkSize: 5, hangAfterChunks: 2 });
    const child = startAgent(["-p", "tell me about kiwis", "--output-format", "json"], { env: env(), cwd: ws.cwd });
    const done = collect(child);
    await waitForOutput(child, '"type":"assistant.message_delta"');
    child.kill("SIGKILL");
    expect((await done).signal).toBe("SIGKILL");
    const id = readdirSync(path.join(ws.home, "session-state"))[0] as string;
    ws.server.enqueue(text("Kiwis are birds."));
    const resumed = await runAgent(["--resume", id, "-p", "please continue", "-s"], { env: env(), cwd: ws.cwd });
    expect(resumed.stdout).toBe("Kiwis are birds.\n");
    const messages = ws.server.completionRequests.at(-1)?.body.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "user"]);
    expect(String(messages[1]?.content)).toContain("tell me about kiwis");
  });
});
