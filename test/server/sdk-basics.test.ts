/**
 * The real Copilot SDK drives the real bin/agent.js (npm run build first): start-up and handshake, a BYOK
 * session, streaming, permissions, a client tool, an MCP server from the session config, abort.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, defineTool, type PermissionRequest } from "@github/copilot-sdk";
import { httpError, text, toolCall } from "../support/scripted-server.js";
import { miniMcpServer, nextEvent, recordEvents, scriptedProvider, useSdkWorld } from "../support/sdk-client.js";

// An endpoint in the environment that would fail: each session's BYOK provider must win over it.
const sdk = useSdkWorld({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", OPENAI_API_KEY: "env-key", AGENT_MODEL: "env-model" });

describe("the SDK server", () => {
  it("starts, answers the handshake with protocol 3, and stops cleanly", async () => {
    const client = sdk.world.client();
    await client.start();
    expect(await client.getStatus()).toMatchObject({ protocolVersion: 3 });
    expect((await client.ping("hi")).message).toBe("pong: hi");
    // The environment's endpoint cannot list its models (nothing listens): its configured model stands in.
    expect((await client.listModels()).map((model) => model.id)).toEqual(["env-model"]);
    expect(await client.stop()).toEqual([]);
  });

  it("runs a BYOK session: streamed deltas, the final message, session.idle, the log on disk", async () => {
    sdk.server.enqueue(text("Hello from the scripted model.", { chunkSize: 5, chunkDelayMs: 5 }));
    const client = sdk.world.client();
    const session = await client.createSession({
      model: "scripted-model",
      provider: scriptedProvider(sdk.server.baseUrl),
      streaming: true,
      onPermissionRequest: approveAll,
    });
    const events = recordEvents(session);
    const answer = await session.sendAndWait({ prompt: "Say hello" });
    expect(answer?.data.content).toBe("Hello from the scripted model.");
    const deltas = events.filter((event) => event.type === "assistant.message_delta").map((event) => event.data.deltaContent);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe("Hello from the scripted model.");
    expect(events.at(-1)?.type).toBe("session.idle");
    // The endpoint, key and model came from the session, not from the environment.
    expect(sdk.server.completionRequests[0]?.headers.authorization).toBe("Bearer test-key");
    expect(sdk.server.completionRequests[0]?.body.model).toBe("scripted-model");
    const stored = (await session.getEvents()).map((event) => event.type);
    expect(stored).toEqual(expect.arrayContaining(["session.start", "user.message", "assistant.message"]));
    expect(stored).not.toContain("assistant.message_delta");
    const log = readFileSync(path.join(sdk.world.home, "session-state", session.sessionId, "events.jsonl"), "utf8");
    expect(log).toContain("Hello from the scripted model.");
    expect(await client.stop()).toEqual([]);
  });

  it("sends no deltas to a client that did not ask for streaming", async () => {
    sdk.server.enqueue(text("Plain answer.", { chunkSize: 3 }));
    const client = sdk.world.client();
    const session = await client.createSession({ provider: scriptedProvider(sdk.server.baseUrl), model: "scripted-model", onPermissionRequest: approveAll });
    const events = recordEvents(session);
    expect((await session.sendAndWait({ prompt: "hi" }))?.data.content).toBe("Plain answer.");
    expect(events.some((event) => event.type === "assistant.message_delta")).toBe(false);
    await client.stop();
  });

  it("asks the client's permission handler: approved runs the command, denied does not", async () => {
    const marker = path.join(sdk.world.cwd, "marker.txt");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "make a marker" }), text("Made it."));
    sdk.server.enqueue(toolCall("bash", { command: `rm ${marker}`, description: "remove the marker" }), text("Could not."));
    const asked: PermissionRequest[] = [];
    let allow = true;
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      onPermissionRequest: (request) => {
        asked.push(request);
        return allow ? { kind: "approve-once" } : { kind: "reject", feedback: "not today" };
      },
    });
    await session.sendAndWait({ prompt: "make the marker" });
    expect(asked[0]?.kind).toBe("shell");
    expect(readFileSync(marker, "utf8")).toBe("");
    allow = false;
    const completed = nextEvent(session, "tool.execution_complete");
    await session.sendAndWait({ prompt: "remove it" });
    expect((await completed).data.success).toBe(false);
    expect(readFileSync(marker, "utf8")).toBe("");
    // What the model was told carries the client's feedback.
    expect(JSON.stringify(sdk.server.completionRequests.at(-1)?.body)).toContain("not today");
    await client.stop();
  });

  it("runs a client-defined tool in the client and gives its result to the model", async () => {
    sdk.server.enqueue(toolCall("lookup_weather", { city: "Oslo" }), text("It is sunny."));
    const calls: unknown[] = [];
    const weather = defineTool("lookup_weather", {
      description: "Looks up the weather",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      handler: async (args: { city: string }) => {
        calls.push(args);
        return `Sunny in ${args.city}, 21°C`;
      },
    });
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      tools: [weather],
      onPermissionRequest: approveAll,
    });
    const answer = await session.sendAndWait({ prompt: "weather in Oslo?" });
    expect(answer?.data.content).toBe("It is sunny.");
    expect(calls).toEqual([{ city: "Oslo" }]);
    const offered = JSON.stringify(sdk.server.completionRequests[0]?.body);
    expect(offered).toContain("lookup_weather");
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body)).toContain("Sunny in Oslo, 21°C");
    await client.stop();
  });

  it("starts an MCP server given in the session config and calls its tool", async () => {
    sdk.server.enqueue(toolCall("mini-echo_text", { text: "ping" }), text("Echoed."));
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      onPermissionRequest: approveAll,
      mcpServers: {
        mini: miniMcpServer(),
      },
    });
    await session.sendAndWait({ prompt: "echo ping" }, 30_000);
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body)).toContain("echo: ping");
    await client.stop();
  });

  it("reports the endpoint's failure as session.error, so sendAndWait rejects with it", async () => {
    sdk.server.enqueue(httpError(401));
    const client = sdk.world.client();
    const session = await client.createSession({ provider: scriptedProvider(sdk.server.baseUrl), model: "scripted-model", onPermissionRequest: approveAll });
    await expect(session.sendAndWait({ prompt: "hi" })).rejects.toThrow(/401|auth/i);
    await client.stop();
  });

  it("aborts a slow stream, then answers the next prompt", async () => {
    // Two frames, then the stream stalls until the client aborts: the abort lands mid-stream however slow the machine.
    sdk.server.enqueue({ kind: "stream", text: "x".repeat(400), chunkSize: 4, hangAfterChunks: 2 }, text("Fresh answer."));
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      streaming: true,
      onPermissionRequest: approveAll,
    });
    const firstDelta = nextEvent(session, "assistant.message_delta");
    const idle = nextEvent(session, "session.idle");
    await session.send({ prompt: "write a lot" });
    await firstDelta;
    await session.abort();
    expect((await idle).data.aborted).toBe(true);
    expect((await session.sendAndWait({ prompt: "again" }))?.data.content).toBe("Fresh answer.");
    await client.stop();
  });
});
