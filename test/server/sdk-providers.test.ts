/**
 * A client's models and providers, through the real Copilot SDK and the real bin/agent.js: the session's own
 * registry (`providers` / `models`, selected as `provider/id`, sent as `wireModel`, growing by
 * session.provider.add), a bearer token the client gives before each request, the client as the transport
 * of every model request (its `requestHandler`), clientName in the User-Agent, and the endpoint handed out by
 * session.provider.getEndpoint.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, CopilotRequestHandler, type CopilotRequestContext } from "@github/copilot-sdk";
import { text } from "../support/scripted-server.js";
import { useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(",") : value;
}

/** Two providers on the scripted server, told apart by a header; alpha has two models. */
function registry(baseUrl: string) {
  return {
    providers: [
      { name: "alpha", type: "openai" as const, baseUrl, apiKey: "alpha-key", headers: { "X-Provider": "alpha" } },
      { name: "beta", type: "openai" as const, baseUrl, apiKey: "beta-key", headers: { "X-Provider": "beta" } },
    ],
    models: [
      { id: "big", provider: "alpha", wireModel: "alpha-big-v2" },
      { id: "small", provider: "alpha" },
      { id: "fast", provider: "beta", wireModel: "beta-fast-v1" },
    ],
  };
}

describe("SDK session model registry", () => {
  it("routes a provider/id selection to its provider with its wire model, and lists the session's models", async () => {
    sdk.server.enqueue(text("From beta."), text("From alpha."));
    const client = sdk.world.client();
    const session = await client.createSession({ onPermissionRequest: approveAll, model: "beta/fast", ...registry(sdk.server.baseUrl) });
    expect((await session.sendAndWait({ prompt: "hi" }))?.data.content).toBe("From beta.");
    const [first] = sdk.server.completionRequests;
    expect(first?.wireBody).toMatchObject({ model: "beta-fast-v1" });
    expect(header(first?.headers["x-provider"])).toBe("beta");
    expect(header(first?.headers.authorization)).toBe("Bearer beta-key");

    const listed = JSON.stringify((await session.rpc.model.list()).list);
    for (const id of ["alpha/big", "alpha/small", "beta/fast"]) expect(listed).toContain(id);

    await session.rpc.model.switchTo({ modelId: "alpha/small" });
    expect((await session.sendAndWait({ prompt: "again" }))?.data.content).toBe("From alpha.");
    const second = sdk.server.completionRequests[1];
    // No wireModel: the provider-local id goes on the wire.
    expect(second?.wireBody).toMatchObject({ model: "small" });
    expect(header(second?.headers["x-provider"])).toBe("alpha");
    await client.stop();
  });

  it("adds a provider and model while the session runs (session.provider.add), and refuses a model of no provider", async () => {
    sdk.server.enqueue(text("From gamma."));
    const client = sdk.world.client();
    const session = await client.createSession({ onPermissionRequest: approveAll, model: "alpha/big", ...registry(sdk.server.baseUrl) });
    const added = await session.rpc.provider.add({
      providers: [{ name: "gamma", type: "openai", baseUrl: sdk.server.baseUrl, apiKey: "gamma-key", headers: { "X-Provider": "gamma" } }],
      models: [{ id: "one", provider: "gamma", name: "Gamma One", wireModel: "gamma-one-wire" }],
    });
    expect(JSON.stringify(added.models)).toContain("gamma/one");
    expect(JSON.stringify(added.models)).toContain("Gamma One");
    await expect(session.rpc.provider.add({ models: [{ id: "x", provider: "nowhere" }] })).rejects.toThrow(/"nowhere" names no provider/);

    expect((await session.rpc.model.switchTo({ modelId: "gamma/one" })).modelId).toBe("gamma/one");
    expect((await session.sendAndWait({ prompt: "hi" }))?.data.content).toBe("From gamma.");
    expect(sdk.server.completionRequests[0]?.wireBody).toMatchObject({ model: "gamma-one-wire" });
    expect(header(sdk.server.completionRequests[0]?.headers["x-provider"])).toBe("gamma");
    await client.stop();
  });

  it("takes the provider a resume of the open session brings, from the next request on, keeping its wireModel", async () => {
    sdk.server.enqueue(text("First."), text("Second."));
    const client = sdk.world.client();
    const provider = (team: string) => ({ type: "openai" as const, baseUrl: sdk.server.baseUrl, apiKey: `${team}-key`, headers: { "X-Team": team } });
    const session = await client.createSession({ onPermissionRequest: approveAll, model: "scripted-model", provider: provider("one") });
    await session.sendAndWait({ prompt: "one" });
    const resumed = await client.resumeSession(session.sessionId, {
      onPermissionRequest: approveAll,
      model: "scripted-model",
      provider: { ...provider("two"), wireModel: "wire-two" },
    });
    expect((await resumed.sendAndWait({ prompt: "two" }))?.data.content).toBe("Second.");
    const [first, second] = sdk.server.completionRequests;
    expect(header(first?.headers["x-team"])).toBe("one");
    expect(header(second?.headers["x-team"])).toBe("two");
    expect(header(second?.headers.authorization)).toBe("Bearer two-key");
    expect(second?.wireBody).toMatchObject({ model: "wire-two" });
    await client.stop();
  });

  it("asks the client for a provider's bearer token before every request, never keeping one", async () => {
    sdk.server.enqueue(text("One."), text("Two."));
    let calls = 0;
    const asked: string[] = [];
    const client = sdk.world.client();
    const session = await client.createSession({
      onPermissionRequest: approveAll,
      model: "vault/m",
      providers: [
        {
          name: "vault",
          type: "openai",
          baseUrl: sdk.server.baseUrl,
          bearerTokenProvider: async ({ providerName, sessionId }) => {
            asked.push(`${providerName} ${sessionId}`);
            return `token-${++calls}`;
          },
        },
      ],
      models: [{ id: "m", provider: "vault" }],
    });
    await session.sendAndWait({ prompt: "one" });
    await session.sendAndWait({ prompt: "two" });
    // Every request asks anew (the model listing the limits are read from included): each carries the token it was given.
    const auth = sdk.server.completionRequests.map((request) => header(request.headers.authorization));
    expect(auth).toHaveLength(2);
    for (const value of auth) expect(value).toMatch(/^Bearer token-\d+$/);
    expect(auth[0]).not.toBe(auth[1]);
    expect(asked.length).toBe(calls);
    expect(new Set(asked)).toEqual(new Set([`vault ${session.sessionId}`]));
    await client.stop();
  });

  it("sends a singular provider's wireModel on the wire and the client's name in the User-Agent; sets the reasoning effort alone", async () => {
    sdk.server.enqueue(text("Hello."));
    const client = sdk.world.client();
    const session = await client.createSession({
      onPermissionRequest: approveAll,
      model: "scripted-model",
      clientName: "my-bot",
      provider: { type: "openai", baseUrl: sdk.server.baseUrl, apiKey: "k", wireModel: "wire-name" },
    });
    await session.sendAndWait({ prompt: "hi" });
    const [request] = sdk.server.completionRequests;
    expect(request?.wireBody).toMatchObject({ model: "wire-name" });
    expect(header(request?.headers["user-agent"])).toContain("my-bot");
    expect(await session.rpc.model.getCurrent()).toMatchObject({ modelId: "scripted-model" });
    expect(await session.rpc.model.setReasoningEffort({ reasoningEffort: "high" })).toEqual({ reasoningEffort: "high" });
    expect(await session.rpc.model.getCurrent()).toEqual({ modelId: "scripted-model", reasoningEffort: "high" });
    await client.stop();
  });
});

/** Passes every request on (as the SDK's base class does), noting what the runtime said it was for. */
class RecordingHandler extends CopilotRequestHandler {
  readonly seen: { url: string; sessionId?: string; agentId?: string; interactionType?: string }[] = [];
  protected override sendRequest(request: Request, ctx: CopilotRequestContext): Promise<Response> {
    this.seen.push({ url: request.url, sessionId: ctx.sessionId, agentId: ctx.agentId, interactionType: ctx.interactionType });
    return super.sendRequest(request, ctx);
  }
}

/** Holds every model request until the runtime cancels it; `entered` resolves when one arrives. */
class HoldingHandler extends CopilotRequestHandler {
  private arrived = (): void => undefined;
  readonly entered = new Promise<void>((resolve) => (this.arrived = resolve));
  aborted = false;
  protected override async sendRequest(_request: Request, ctx: CopilotRequestContext): Promise<Response> {
    this.arrived();
    await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
    this.aborted = true;
    throw new Error("cancelled by the runtime");
  }
}

describe("SDK client as the model transport (requestHandler)", () => {
  it("carries every model request of the client's sessions, told which session it is for", async () => {
    sdk.server.enqueue(text("Through the client."));
    const handler = new RecordingHandler();
    const client = sdk.world.client({ requestHandler: handler });
    const session = await client.createSession({ onPermissionRequest: approveAll, model: "scripted-model", provider: sdk.provider() });
    expect((await session.sendAndWait({ prompt: "hi" }))?.data.content).toBe("Through the client.");
    // The chat request, and the model listing its limits are read from: none goes to the network on its own.
    const chat = handler.seen.filter((seen) => seen.url.endsWith("/chat/completions"));
    expect(chat).toHaveLength(1);
    expect(chat[0]).toMatchObject({ url: `${sdk.server.baseUrl}/chat/completions`, sessionId: session.sessionId, interactionType: "conversation-agent" });
    expect(chat[0]?.agentId).toBeTruthy();
    expect(sdk.server.requests.length).toBe(handler.seen.length);
    await client.stop();
  });

  it("fails the turn when the client's handler throws, and tells the handler when a turn is aborted", async () => {
    class Throwing extends CopilotRequestHandler {
      protected override sendRequest(): Promise<Response> {
        return Promise.reject(new Error("no network for you"));
      }
    }
    // One attempt only: the retry policy would otherwise wait out its backoff.
    mkdirSync(sdk.world.home, { recursive: true });
    writeFileSync(path.join(sdk.world.home, "settings.json"), JSON.stringify({ provider: { retry: { maxRetries: 0 } } }));
    const client = sdk.world.client({ requestHandler: new Throwing() });
    const session = await client.createSession({ onPermissionRequest: approveAll, model: "scripted-model", provider: sdk.provider() });
    const error = session.sendAndWait({ prompt: "hi" }, 60_000).then(
      () => "answered",
      (failure: Error) => failure.message,
    );
    expect(await error).toMatch(/no network for you/);
    expect(sdk.server.completionRequests).toHaveLength(0);
    await client.stop();

    const holding = new HoldingHandler();
    const second = sdk.world.client({ requestHandler: holding });
    const held = await second.createSession({ onPermissionRequest: approveAll, model: "scripted-model", provider: sdk.provider() });
    await held.send({ prompt: "wait" });
    await holding.entered;
    await held.abort();
    await expect.poll(() => holding.aborted).toBe(true);
    await second.stop();
  });

  it("lets only one client of a server carry model requests", async () => {
    const token = "transport-token";
    const { port } = await sdk.world.tcpServer(token);
    const first = sdk.world.connect(port, token, { requestHandler: new RecordingHandler() });
    await first.start();
    const second = sdk.world.connect(port, token, { requestHandler: new RecordingHandler() });
    await expect(second.start()).rejects.toThrow(/Another client is already the LLM inference provider/);
    await first.stop();
  });
});

describe("SDK session.provider.getEndpoint", () => {
  it("is refused unless the server's environment allows it", async () => {
    const client = sdk.world.client();
    const session = await client.createSession({ onPermissionRequest: approveAll, model: "scripted-model", provider: sdk.provider() });
    await expect(session.rpc.provider.getEndpoint({})).rejects.toThrow(/COPILOT_ALLOW_GET_PROVIDER_ENDPOINT=true/);
    await client.stop();
  });

  it("hands out the session's endpoint, credential and headers when allowed", async () => {
    sdk.world.env.COPILOT_ALLOW_GET_PROVIDER_ENDPOINT = "true";
    const client = sdk.world.client();
    const session = await client.createSession({
      onPermissionRequest: approveAll,
      model: "scripted-model",
      provider: { type: "openai", wireApi: "responses", baseUrl: sdk.server.baseUrl, apiKey: "the-key", headers: { "X-Team": "infra" } },
    });
    expect(await session.rpc.provider.getEndpoint({})).toEqual({
      type: "openai",
      wireApi: "responses",
      baseUrl: sdk.server.baseUrl,
      apiKey: "the-key",
      headers: { "X-Team": "infra", Authorization: "Bearer the-key" },
    });
    await client.stop();
  });
});
