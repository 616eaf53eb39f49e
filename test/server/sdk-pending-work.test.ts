/**
 * Resuming a session whose work waits on a client, through the real Copilot SDK and the real bin/agent.js
 * over TCP: a second client joins an open session (session.resume with sessionWasActive and
 * continuePendingWork, its tools joining the session's until it goes), and a session whose only client went
 * away mid-question stays open, suspended, for a client that continues the work (continuePendingWork) or
 * abandons it (the turn is interrupted).
 */
import { approveAll, defineTool, type CopilotSession, type SessionEvent } from "@github/copilot-sdk";
import { describe, expect, it } from "vitest";
import { text, toolCall } from "../support/scripted-server.js";
import { gate } from "../support/gate.js";
import { nextEvent, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();
const TOKEN = "pending-work";

/** A tool whose handler never answers: the call stays pending with the client that ran it. */
function hangingTool(name: string, started: () => void) {
  return defineTool(name, {
    description: `Looks ${name} up`,
    parameters: { type: "object", properties: { value: { type: "string" } } },
    handler: () => {
      started();
      return new Promise<string>(() => undefined);
    },
  });
}

async function resumeEventOf(session: CopilotSession): Promise<Extract<SessionEvent, { type: "session.resume" }> | undefined> {
  const events = await session.getEvents();
  return events.filter((event): event is Extract<SessionEvent, { type: "session.resume" }> => event.type === "session.resume").at(-1);
}

/** A server, and a first client's session whose turn waits on its hanging tool `lookup` (the model then says `after`). */
async function waitingSession(after?: string) {
  const { port } = await sdk.world.tcpServer(TOKEN);
  const provider = sdk.provider();
  sdk.server.enqueue(toolCall("lookup", { value: "beta" }), ...(after ? [text(after)] : []));
  const first = sdk.world.connect(port, TOKEN);
  const started = gate();
  const session = await first.createSession({
    provider,
    model: "scripted-model",
    onPermissionRequest: approveAll,
    tools: [hangingTool("lookup", started.open)],
  });
  const requested = nextEvent(session, "external_tool.requested");
  await session.send({ prompt: "look beta up" });
  const { requestId } = (await requested).data;
  await started.opened;
  return { port, provider, first, session, requestId };
}

/** The tool results the model was given in its `index`th request. */
const toolResults = (index: number): unknown[] =>
  (sdk.server.completionRequests[index]?.body.messages ?? []).filter((message) => message.role === "tool").map((message) => message.content);

describe("SDK pending work on resume", () => {
  it("a second client joins live work: sessionWasActive, and it may answer the first client's pending tool call", async () => {
    const { port, provider, session, requestId } = await waitingSession("Looked up.");
    const joined = await sdk.world
      .connect(port, TOKEN)
      .resumeSession(session.sessionId, { provider, model: "scripted-model", onPermissionRequest: approveAll });
    expect((await resumeEventOf(joined))?.data).toMatchObject({ sessionWasActive: true, continuePendingWork: false, alreadyInUse: true });
    const idle = nextEvent(session, "session.idle");
    // The answer is taken, and said to be (success: true).
    expect(await joined.rpc.tools.handlePendingToolCall({ requestId, result: "BETA" })).toEqual({ success: true });
    await idle;
    expect(toolResults(1)).toEqual(["BETA"]);
  });

  it("the only client goes away mid-call: the session waits, and a client continuing the work (continuePendingWork) answers the call", async () => {
    const { port, provider, first, session, requestId } = await waitingSession("Looked up.");
    await first.forceStop();
    const resumed = await sdk.world
      .connect(port, TOKEN)
      .resumeSession(session.sessionId, { provider, model: "scripted-model", onPermissionRequest: approveAll, continuePendingWork: true });
    expect((await resumeEventOf(resumed))?.data).toMatchObject({ sessionWasActive: true, continuePendingWork: true, alreadyInUse: false });
    const idle = nextEvent(resumed, "session.idle");
    expect(await resumed.rpc.tools.handlePendingToolCall({ requestId, result: "RESUMED_BETA" })).toEqual({ success: true });
    expect((await idle).data.aborted).toBeFalsy();
    expect(toolResults(1)).toEqual(["RESUMED_BETA"]);
  });

  it("the only client goes away mid-call and the next one does not continue the work: the call is interrupted, the session goes on", async () => {
    const { port, provider, first, session, requestId } = await waitingSession();
    await first.forceStop();
    const resumed = await sdk.world
      .connect(port, TOKEN)
      .resumeSession(session.sessionId, { provider, model: "scripted-model", onPermissionRequest: approveAll });
    expect((await resumeEventOf(resumed))?.data).toMatchObject({ sessionWasActive: false, continuePendingWork: false });
    expect((await resumed.rpc.tools.handlePendingToolCall({ requestId, result: "TOO_LATE" })).success).toBe(false);
    sdk.server.enqueue(text("Fresh start."));
    expect((await resumed.sendAndWait({ prompt: "again" }))?.data.content).toBe("Fresh start.");
    // The abandoned call's result, as the model reads it with the next prompt; no turn was taken for it alone.
    expect(toolResults(1)).toEqual(["The execution of this tool, or a previous tool was interrupted."]);
  });

  it("a permission question left by a client that went away is put again to the client continuing the work", async () => {
    const { port } = await sdk.world.tcpServer(TOKEN);
    const provider = sdk.provider();
    sdk.server.enqueue(toolCall("guarded", { value: "alpha" }), text("Guarded done."));
    const first = sdk.world.connect(port, TOKEN);
    const asked = gate();
    const guarded = (handler: () => string) =>
      defineTool("guarded", { description: "Needs a yes", parameters: { type: "object", properties: { value: { type: "string" } } }, handler });
    const session = await first.createSession({
      provider,
      model: "scripted-model",
      tools: [guarded(() => "FIRST_SHOULD_NOT_RUN")],
      onPermissionRequest: () => {
        asked.open();
        return new Promise(() => undefined);
      },
    });
    await session.send({ prompt: "guard it" });
    await asked.opened;
    await first.forceStop();
    const kinds: string[] = [];
    const resumed = await sdk.world.connect(port, TOKEN).resumeSession(session.sessionId, {
      provider,
      model: "scripted-model",
      continuePendingWork: true,
      tools: [guarded(() => "RESUMED_RAN")],
      onPermissionRequest: (request) => {
        kinds.push(request.kind);
        return { kind: "approve-once" };
      },
    });
    const idle = nextEvent(resumed, "session.idle");
    expect((await idle).data.aborted).toBeFalsy();
    expect(kinds).toEqual(["custom-tool"]);
    expect(toolResults(1)).toEqual(["RESUMED_RAN"]);
    expect((await resumed.rpc.permissions.pendingRequests()).items).toEqual([]);
  });

  it("a joining client's tools join the session's and leave with it; another client's tool name is refused", async () => {
    const { port } = await sdk.world.tcpServer(TOKEN);
    const provider = sdk.provider();
    const tool = (name: string, result: string) =>
      defineTool(name, { description: `The ${name}`, parameters: { type: "object", properties: {} }, handler: () => result });
    const first = sdk.world.connect(port, TOKEN);
    const session = await first.createSession({ provider, model: "scripted-model", onPermissionRequest: approveAll, tools: [tool("city", "CITY")] });
    const second = await sdk.world.connect(port, TOKEN).resumeSession(session.sessionId, {
      provider,
      model: "scripted-model",
      onPermissionRequest: approveAll,
      tools: [tool("currency", "CURRENCY")],
    });
    // Two clients never both answer one name: a third bringing `city` is refused (and does not hold the session).
    const third = sdk.world.connect(port, TOKEN);
    await expect(
      third.resumeSession(session.sessionId, { provider, model: "scripted-model", onPermissionRequest: approveAll, tools: [tool("city", "THIRD_CITY")] }),
    ).rejects.toThrow(/already provides the tool\(s\) city/);
    // Idle when it joined: no live work.
    expect((await resumeEventOf(second))?.data).toMatchObject({ sessionWasActive: false, alreadyInUse: true });
    sdk.server.enqueue(toolCall("currency", {}), text("One."), toolCall("city", {}), text("Two."));
    expect((await session.sendAndWait({ prompt: "currency" }))?.data.content).toBe("One.");
    expect((await session.sendAndWait({ prompt: "city" }))?.data.content).toBe("Two.");
    expect(toolResults(1)).toEqual(["CURRENCY"]);
    expect(toolResults(3)).toEqual(["CURRENCY", "CITY"]);
    const offered = (index: number) =>
      ((sdk.server.completionRequests[index]?.body.tools ?? []) as { function: { name: string } }[]).map((entry) => entry.function.name);
    expect(offered(0)).toEqual(expect.arrayContaining(["city", "currency"]));

    await second.disconnect();
    sdk.server.enqueue(text("Three."));
    expect((await session.sendAndWait({ prompt: "what now" }))?.data.content).toBe("Three.");
    expect(offered(4)).toContain("city");
    expect(offered(4)).not.toContain("currency");
  });
});
