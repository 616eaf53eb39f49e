/**
 * How turns end for an SDK client, through the real Copilot SDK and the real bin/agent.js: a prompt queued
 * behind a running one waits for its own answer, questions end with the turn that asked them, and a
 * resumed session with nobody to approve is refused at once.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { gate } from "../support/gate.js";
import { text, toolCall } from "../support/scripted-server.js";
import { cancelReceived, nextEvent, scriptedProvider, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

describe("SDK turns", () => {
  it("resolves a sendAndWait queued behind a running prompt with its own answer, not the running one's", async () => {
    const marker = path.join(sdk.world.cwd, "first.txt");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("First answer."), text("Second answer."));
    const approval = gate();
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      // The first prompt waits on this approval, so the second is sure to be queued behind it.
      onPermissionRequest: async () => {
        await approval.opened;
        return { kind: "approve-once" };
      },
    });
    const asked = nextEvent(session, "permission.requested");
    await session.send({ prompt: "one" });
    await asked;
    const queued = nextEvent(session, "pending_messages.modified");
    const second = session.sendAndWait({ prompt: "two", mode: "enqueue" });
    await queued;
    approval.open();
    expect((await second)?.data.content).toBe("Second answer.");
    expect(existsSync(marker)).toBe(true);
    await client.stop();
  });

  it("after a resume without a permission handler, leaves the request to the application, which answers it by RPC", async () => {
    // The SDK then sends requestPermission: true but answers nothing itself ("left pending for the consumer to
    // resolve via the pending permission RPC"): the server cannot tell, so the application's own answer must work.
    const marker = path.join(sdk.world.cwd, "resumed.txt");
    sdk.server.enqueue(text("Started."), toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("Refused, fine."));
    const first = sdk.world.client();
    const created = await first.createSession({ provider: scriptedProvider(sdk.server.baseUrl), model: "scripted-model", onPermissionRequest: approveAll });
    await created.sendAndWait({ prompt: "start" });
    await first.stop();

    const second = sdk.world.client();
    const session = await second.resumeSession(created.sessionId, { provider: scriptedProvider(sdk.server.baseUrl), model: "scripted-model" });
    session.on("permission.requested", (event) => {
      void session.rpc.permissions.handlePendingPermissionRequest({
        requestId: event.data.requestId,
        result: { kind: "reject", feedback: "not from this app" },
      });
    });
    expect((await session.sendAndWait({ prompt: "touch it" }))?.data.content).toBe("Refused, fine.");
    expect(existsSync(marker)).toBe(false);
    expect(JSON.stringify(sdk.server.completionRequests.at(-1)?.body.messages)).toContain("not from this app");
    await second.stop();
  });

  it("interrupting a turn that waits on the client's user-input handler ends the turn at once and withdraws the request", async () => {
    sdk.server.enqueue(toolCall("ask_user", { question: "Which colour?", choices: ["red", "blue"] }), text("Fresh start."));
    const asked = gate();
    const late = gate();
    const client = sdk.world.client();
    const cancelled = cancelReceived(client);
    const session = await client.createSession({
      provider: scriptedProvider(sdk.server.baseUrl),
      model: "scripted-model",
      onPermissionRequest: approveAll,
      onUserInputRequest: async () => {
        asked.open();
        await late.opened;
        return { answer: "crimson, too late", wasFreeform: true };
      },
    });
    const idle = nextEvent(session, "session.idle");
    const completed = nextEvent(session, "user_input.completed");
    await session.send({ prompt: "pick" });
    await asked.opened;
    await session.abort();
    expect((await idle).data.aborted).toBe(true);
    expect((await completed).data.answer).toBeUndefined();
    await cancelled;
    // The user answers anyway, too late: nothing changes, and the next prompt starts clean.
    late.open();
    expect((await session.sendAndWait({ prompt: "again" }))?.data.content).toBe("Fresh start.");
    expect(JSON.stringify(sdk.server.completionRequests.at(-1)?.body.messages)).not.toContain("crimson");
    await client.stop();
  });
});
