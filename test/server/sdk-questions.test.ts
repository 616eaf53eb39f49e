/**
 * Questions through the real Copilot SDK and the real bin/agent.js, by the shared adapter
 * (core/remote-questions.ts): several clients on one session each get every event and any may answer (the
 * first answer wins, the others are withdrawn), and "yes for this session" answers the other waiting
 * questions it covers.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startScriptedServer, text, toolCall } from "../support/scripted-server.js";
import { twinTouchAgents } from "../support/twin-agents.js";
import { gate } from "../support/gate.js";
import { cancelReceived, nextEvent, recordEvents, scriptedProvider, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

/** Two clients of one server over TCP, the second attached to the first one's session. */
async function twoClients() {
  const { port } = await sdk.world.tcpServer("two-clients");
  return { first: sdk.world.connect(port, "two-clients"), second: sdk.world.connect(port, "two-clients") };
}

describe("SDK questions", () => {
  it("attaches a second client to a session open in this server: both get every event, and the one able to answer does", async () => {
    const marker = path.join(sdk.world.cwd, "shared.txt");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("Done together."));
    const { first, second } = await twoClients();
    const provider = sdk.provider();
    // The first client leaves permission questions to someone else.
    const one = await first.createSession({ provider, model: "scripted-model", onPermissionRequest: () => ({ kind: "no-result" }) });
    const asked: string[] = [];
    const two = await second.resumeSession(one.sessionId, {
      provider,
      model: "scripted-model",
      onPermissionRequest: (request) => {
        asked.push(request.kind);
        return { kind: "approve-once" };
      },
    });
    const seenByOne = recordEvents(one);
    const seenByTwo = recordEvents(two);
    const twoIdle = nextEvent(two, "session.idle");
    // Either client may prompt: the second sends, the first waits for the answer too.
    const oneIdle = nextEvent(one, "session.idle");
    expect((await two.sendAndWait({ prompt: "touch it" }))?.data.content).toBe("Done together.");
    await Promise.all([oneIdle, twoIdle]);
    expect(existsSync(marker)).toBe(true);
    expect(asked).toEqual(["shell"]);
    const types = seenByOne.map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(["user.message", "permission.requested", "permission.completed", "assistant.message", "session.idle"]));
    // The same events, in the same order, for both.
    expect(seenByTwo.map((event) => event.id)).toEqual(seenByOne.map((event) => event.id));
    const completed = seenByOne.find((event) => event.type === "permission.completed");
    expect(completed?.type === "permission.completed" && completed.data.result.kind).toBe("approved");

    // The second client lets go: the session stays open for the first.
    await two.disconnect();
    sdk.server.enqueue(text("Still here."));
    expect((await one.sendAndWait({ prompt: "still there?" }))?.data.content).toBe("Still here.");
  });

  it("puts a question to every client able to answer it: the first answer wins and the other client's request is withdrawn", async () => {
    sdk.server.enqueue(toolCall("ask_user", { question: "Which colour?", choices: ["red", "blue"] }), text("Blue, then."));
    const { first, second } = await twoClients();
    const provider = sdk.provider();
    const firstAsked = gate();
    const never = gate();
    const withdrawn = cancelReceived(first);
    const one = await first.createSession({
      provider,
      model: "scripted-model",
      onPermissionRequest: () => ({ kind: "approve-once" }),
      onUserInputRequest: async () => {
        firstAsked.open();
        await never.opened;
        return { answer: "red", wasFreeform: false };
      },
    });
    const two = await second.resumeSession(one.sessionId, {
      provider,
      model: "scripted-model",
      onPermissionRequest: () => ({ kind: "approve-once" }),
      onUserInputRequest: async () => {
        await firstAsked.opened;
        return { answer: "blue", wasFreeform: false };
      },
    });
    const completed = nextEvent(one, "user_input.completed");
    expect((await one.sendAndWait({ prompt: "pick" }))?.data.content).toBe("Blue, then.");
    expect((await completed).data.answer).toBe("blue");
    await withdrawn;
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body.messages)).toContain("blue");
    never.open();
    await two.disconnect();
  });
});

describe("releasing waiting questions", () => {
  it("'yes for this session' to one agent's question answers another agent's waiting question for the same command", async () => {
    // Two sync agents run side by side; each wants to run `touch`, so both questions wait at once.
    const files = ["a.txt", "b.txt"].map((name) => path.join(sdk.world.cwd, name));
    const server = await startScriptedServer({ responder: twinTouchAgents(files) });
    onTestFinished(() => server.close());
    const client = sdk.world.client();
    let questions = 0;
    const bothAsked = gate();
    const session = await client.createSession({
      provider: scriptedProvider(server.baseUrl),
      model: "scripted-model",
      onPermissionRequest: async () => {
        questions++;
        if (questions === 2) bothAsked.open();
        // The second question is left waiting: only the first one's answer may release it.
        if (questions > 1) return { kind: "no-result" };
        await bothAsked.opened;
        return { kind: "approve-for-session" };
      },
    });
    const seen = recordEvents(session);
    expect((await session.sendAndWait({ prompt: "make both files" }, 30_000))?.data.content).toBe("Both made.");
    expect(files.filter((file) => existsSync(file))).toEqual(files);
    const requested = seen.filter((event) => event.type === "permission.requested");
    expect(requested).toHaveLength(2);
    // The answers offered are on the event (a field the SDK's types do not know yet).
    const offered = (requested[0]?.data as { options?: { kind: string }[] } | undefined)?.options;
    expect(offered?.map((option) => option.kind)).toEqual(["allow_once", "allow_session", "allow_always", "reject_once"]);
    const completions = seen.flatMap((event) => (event.type === "permission.completed" ? [[event.data.result.kind, event.data.decisionSource]] : []));
    expect(completions).toEqual([
      ["approved", "human_response"],
      ["approved", "session_approval"],
    ]);
    await client.stop();
  });
});
