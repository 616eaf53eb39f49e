/**
 * session.lifecycle notifications (the SDK's client.onLifecycle) and resuming without a session.resume
 * event (the SDK's suppressResumeEvent, disableResume on the wire), through the real Copilot SDK and the
 * real bin/agent.js.
 */
import { describe, expect, it } from "vitest";
import { approveAll, type SessionLifecycleEvent } from "@github/copilot-sdk";
import { text } from "../support/scripted-server.js";
import { useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

const provider = () => sdk.provider();

describe("SDK session lifecycle", () => {
  it("tells the client a session was created, changed and deleted", async () => {
    sdk.server.enqueue(text("Hello back."));
    const client = sdk.world.client();
    const heard: SessionLifecycleEvent[] = [];
    client.onLifecycle((event) => void heard.push(event));
    const session = await client.createSession({ provider: provider(), model: "scripted-model", onPermissionRequest: approveAll });
    // Notifications come before the answer on the same connection: each is here once its call returns.
    expect(heard.map((event) => event.type)).toEqual(["session.created"]);
    expect(heard[0]?.sessionId).toBe(session.sessionId);
    expect(heard[0]?.metadata?.startTime).toBeInstanceOf(Date);

    await session.sendAndWait({ prompt: "hello there" });
    const updates = heard.filter((event) => event.type === "session.updated");
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.at(-1)?.metadata?.summary).toBe("hello there");
    expect(updates.at(-1)?.metadata?.modifiedTime.getTime()).toBeGreaterThanOrEqual(heard[0]?.metadata?.startTime.getTime() ?? Infinity);

    await client.deleteSession(session.sessionId);
    expect(heard.at(-1)).toMatchObject({ type: "session.deleted", sessionId: session.sessionId });
    await client.stop();
  });

  it("resumes without a session.resume event when the client asks (suppressResumeEvent)", async () => {
    sdk.server.enqueue(text("First."), text("Second."));
    const first = sdk.world.client();
    const created = await first.createSession({ provider: provider(), model: "scripted-model", onPermissionRequest: approveAll });
    await created.sendAndWait({ prompt: "one" });
    await first.stop();

    const second = sdk.world.client();
    const resumed = await second.resumeSession(created.sessionId, {
      provider: provider(),
      model: "scripted-model",
      onPermissionRequest: approveAll,
      suppressResumeEvent: true,
    });
    expect((await resumed.sendAndWait({ prompt: "two" }))?.data.content).toBe("Second.");
    const types = (await resumed.getEvents()).map((event) => event.type);
    expect(types).not.toContain("session.resume");
    expect(types.filter((type) => type === "user.message")).toHaveLength(2);
    await second.stop();
  });
});
