import { spawn } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import OpenAI from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countLines, DEMO_INTRO, demoResponder } from "./demo-responder.js";
import { startScriptedServer, text, type ScriptedServer } from "./scripted-server.js";
import { collect, streamRequest } from "./scripted-test-helpers.js";
import { tempDir } from "./temp-dirs.js";

let server: ScriptedServer;
let client: OpenAI;

beforeAll(async () => {
  server = await startScriptedServer({ responder: demoResponder });
  client = new OpenAI({ baseURL: server.baseUrl, apiKey: "test", maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
});

const bashTool: ChatCompletionTool = { type: "function", function: { name: "bash", parameters: { type: "object" } } };
const completeTool: ChatCompletionTool = { type: "function", function: { name: "task_complete", parameters: { type: "object" } } };

function afterTool(toolName: string, output: string): ChatCompletionMessageParam[] {
  return [
    { role: "user", content: "list files" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: toolName, arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content: output },
  ];
}

describe("demoResponder", () => {
  it("answers a user message with an intro and a bash ls tool call", async () => {
    const result = await collect(await client.chat.completions.create(streamRequest("what is here?", { tools: [bashTool] })));
    expect(result.content).toBe(DEMO_INTRO);
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]?.name).toBe("bash");
    expect(JSON.parse(result.toolCalls[0]?.arguments ?? "")).toEqual({ command: "ls", description: "List files" });
    expect(result.finishReason).toBe("tool_calls");
  });

  it("answers a tool result with task_complete when that tool is offered", async () => {
    const request = streamRequest("", { messages: afterTool("bash", "a\nb\n"), tools: [bashTool, completeTool] });
    const result = await collect(await client.chat.completions.create(request));
    expect(result.toolCalls.map((c) => [c.name, JSON.parse(c.arguments) as unknown])).toEqual([["task_complete", { summary: "Listed the files." }]]);
  });

  it("otherwise summarises the number of lines the command printed", async () => {
    const request = streamRequest("", { messages: afterTool("bash", "a.ts\nb.ts\nc.ts\n"), tools: [bashTool] });
    const result = await collect(await client.chat.completions.create(request));
    expect(result.content).toBe("The command printed 3 lines.");
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe("stop");
  });

  it("does not loop after a task_complete result", async () => {
    const request = streamRequest("", { messages: afterTool("task_complete", "ok"), tools: [completeTool] });
    const result = await collect(await client.chat.completions.create(request));
    expect(result.content).toBe("All done.");
    expect(result.toolCalls).toEqual([]);
  });

  it("greets when the last message is neither user nor tool", () => {
    const response = demoResponder({ body: { messages: [{ role: "system", content: "s" }] } });
    expect(response).toMatchObject({ kind: "stream", text: expect.stringContaining("Hello") });
    expect(response).not.toHaveProperty("toolCalls");
  });

  it("counts lines", () => {
    expect([countLines(""), countLines("a"), countLines("a\n"), countLines("a\r\nb"), countLines("a\n\nb\n")]).toEqual([0, 1, 1, 2, 3]);
  });
});

describe("scripted-server-cli", () => {
  it("prints its usage with --help: the options, the script format and the demo model", async () => {
    const cli = fileURLToPath(new URL("./scripted-server-cli.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", cli, "--help"], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(0);
    expect(stdout).toContain("--script file.json");
    expect(stdout).toContain('"kind":"stream"');
    expect(stdout).toContain("The command printed N lines.");
  });

  it("prints OPENAI_BASE_URL first, serves the script then the demo, and stops on SIGTERM", async () => {
    const dir = tempDir("scripted-cli-");
    const scriptFile = join(dir, "script.json");
    await writeFile(scriptFile, JSON.stringify([text("from the script")]));
    const cli = fileURLToPath(new URL("./scripted-server-cli.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", cli, "--script", scriptFile], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      const lines = createInterface({ input: child.stdout });
      const first = await new Promise<string>((resolve, reject) => {
        lines.once("line", resolve);
        child.once("exit", (code) => reject(new Error(`cli exited early with ${code}`)));
      });
      expect(first).toMatch(/^OPENAI_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const cliClient = new OpenAI({ baseURL: first.slice("OPENAI_BASE_URL=".length), apiKey: "test", maxRetries: 0 });
      expect((await collect(await cliClient.chat.completions.create(streamRequest("hi")))).content).toBe("from the script");
      expect((await collect(await cliClient.chat.completions.create(streamRequest("hi")))).toolCalls[0]?.name).toBe("bash");
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });
});
