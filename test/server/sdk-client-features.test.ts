/**
 * What an SDK application adds to a session beyond tools and permissions, through the real Copilot SDK and
 * the real bin/agent.js: hooks answered by the client (hooks.invoke), custom agents, a system message.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { text, toolCall } from "../support/scripted-server.js";
import { scriptedProvider, sdkWorld, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

describe("SDK client features", () => {
  it("runs the client's hooks: a prompt's added context, a tool call denied before it runs", async () => {
    const marker = path.join(sdk.world.cwd, "hooked.txt");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("Understood."));
    const seen: string[] = [];
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      onPermissionRequest: approveAll,
      hooks: {
        onSessionStart: () => void seen.push("sessionStart"),
        onUserPromptSubmitted: (input) => {
          seen.push(`prompt: ${input.prompt}`);
          return { additionalContext: "The application says: be brief." };
        },
        onPreToolUse: (input) => {
          seen.push(`tool: ${input.toolName} ${JSON.stringify(input.toolArgs)}`);
          return { permissionDecision: "deny", permissionDecisionReason: "no shell from this app" };
        },
      },
    });
    await session.sendAndWait({ prompt: "make a marker" });
    expect(seen[0]).toBe("sessionStart");
    expect(seen).toContain("prompt: make a marker");
    expect(seen.find((line) => line.startsWith("tool: bash"))).toContain(marker);
    expect(existsSync(marker)).toBe(false);
    expect(JSON.stringify(sdk.server.completionRequests[0]?.body.messages)).toContain("The application says: be brief.");
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body.messages)).toContain("no shell from this app");
    await client.stop();
  });

  it("offers the client's custom agents to the model and runs the session as the chosen one, with its system message", async () => {
    sdk.server.enqueue(text("Arr."));
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      onPermissionRequest: approveAll,
      systemMessage: { mode: "append", content: "Always answer in one word." },
      customAgents: [{ name: "pirate", displayName: "Pirate", description: "Talks like a pirate", prompt: "You are a pirate. Say arr." }],
      agent: "pirate",
    });
    expect((await session.sendAndWait({ prompt: "hello" }))?.data.content).toBe("Arr.");
    const system = JSON.stringify(sdk.server.completionRequests[0]?.body.messages[0]);
    expect(system).toContain("You are a pirate. Say arr.");
    expect(system).toContain("Always answer in one word.");
    await client.stop();
  });

  it("asks the client to review a plan (exitPlanMode.request) and leaves plan mode as it chose", async () => {
    sdk.server.enqueue(toolCall("exit_plan_mode", { summary: "- add a cache", recommendedAction: "interactive" }), text("Implementing it now."));
    const reviews: string[] = [];
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      onPermissionRequest: approveAll,
      onExitPlanModeRequest: (request) => {
        reviews.push(request.summary);
        return { approved: true, selectedAction: "interactive" };
      },
    });
    expect((await session.sendAndWait({ prompt: "plan a cache", agentMode: "plan" }))?.data.content).toBe("Implementing it now.");
    expect(reviews).toEqual(["- add a cache"]);
    expect(await session.rpc.mode.get()).toBe("interactive");
    await client.stop();
  });

  it("puts ask_user's form to the client's elicitation handler", async () => {
    const form = { type: "object", properties: { colour: { type: "string", enum: ["red", "blue"] } }, required: ["colour"] };
    sdk.server.enqueue(toolCall("ask_user", { message: "Which colour?", requestedSchema: form }), text("Blue, then."));
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      onPermissionRequest: approveAll,
      onElicitationRequest: (request) => ({ action: "accept", content: { colour: request.message.includes("colour") ? "blue" : "red" } }),
    });
    expect((await session.sendAndWait({ prompt: "ask me" }))?.data.content).toBe("Blue, then.");
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body.messages)).toContain("blue");
    await client.stop();
  });

  it("lets a question the client never answers lapse after the time limit: the call is denied, the turn ends", async () => {
    const lapsing = sdkWorld({ AGENT_SERVER_QUESTION_TIMEOUT_MS: "300" });
    onTestFinished(() => lapsing.cleanup());
    mkdirSync(lapsing.cwd, { recursive: true });
    const marker = path.join(lapsing.cwd, "lapsed.txt");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("Gave up."));
    const client = lapsing.client();
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      // A handler that never decides.
      onPermissionRequest: () => new Promise<never>(() => undefined),
    });
    expect((await session.sendAndWait({ prompt: "touch it" }, 20_000))?.data.content).toBe("Gave up.");
    expect(existsSync(marker)).toBe(false);
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body.messages)).toContain("did not answer the permission request in time");
    await client.forceStop();
  });

  it("switches the model and the mode, and records the client's log message, on the client's request", async () => {
    sdk.server.enqueue(text("first"), text("second"));
    const client = sdk.world.client();
    const session = await client.createSession({ provider: scriptedProvider(sdk.server.baseUrl), model: "scripted-model", onPermissionRequest: approveAll });
    await session.sendAndWait({ prompt: "one" });
    await session.setModel("other-model");
    expect(await session.rpc.model.getCurrent()).toMatchObject({ modelId: "other-model" });
    expect(await session.rpc.mode.get()).toBe("interactive");
    await session.rpc.mode.set({ mode: "plan" });
    expect(await session.rpc.mode.get()).toBe("plan");
    await session.sendAndWait({ prompt: "two" });
    expect(sdk.server.completionRequests[1]?.body.model).toBe("other-model");
    await session.log("noted by the application", { level: "warning" });
    const events = await session.getEvents();
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(["session.model_change", "session.mode_changed"]));
    expect(events.find((event) => event.type === "session.warning")?.data).toMatchObject({ message: "noted by the application" });
    await client.stop();
  });

  it("refuses a session whose provider it cannot speak to, and one with no endpoint at all", async () => {
    const client = sdk.world.client();
    // openai, azure and anthropic are spoken; a type from a newer client is refused by name.
    const unknownType = { type: "gemini", baseUrl: "http://127.0.0.1:9" } as unknown as { type: "openai"; baseUrl: string };
    await expect(client.createSession({ provider: unknownType, model: "m", onPermissionRequest: approveAll })).rejects.toThrow(
      /Provider type "gemini" is not supported/,
    );
    await expect(client.createSession({ model: "m", onPermissionRequest: approveAll })).rejects.toThrow(/No model endpoint is configured/);
    await client.stop();
  });
});
