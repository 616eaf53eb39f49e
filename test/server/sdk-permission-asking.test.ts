/**
 * What an SDK session asks its app, through the real Copilot SDK and bin/agent.js: every command and file read
 * its rules do not allow, read-only ones too (Copilot's SDK sessions); an approval for the session or a rule
 * stops the asking; the permission questions of one response's parallel client tools are all asked before
 * any is answered; and a plain reject ends the turn with Copilot's words.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defineTool, type SessionEvent } from "@github/copilot-sdk";
import { text, toolCall, toolCalls } from "../support/scripted-server.js";
import { recordingHandler, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

describe("SDK permission asking", () => {
  it("a read-only command and a file read in the workspace are asked of the app", async () => {
    writeFileSync(path.join(sdk.world.cwd, "notes.txt"), "hello\n");
    sdk.server.enqueue(
      toolCall("bash", { command: "echo asked_of_app", description: "echo" }),
      toolCall("view", { path: path.join(sdk.world.cwd, "notes.txt") }),
      text("Done."),
    );
    const { asked, onPermissionRequest } = recordingHandler();
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest });
    await session.sendAndWait({ prompt: "echo, then read" });
    expect(asked.map((request) => request.kind)).toEqual(["shell", "read"]);
    expect(asked.every((request) => typeof request.toolCallId === "string" && request.toolCallId.length > 0)).toBe(true);
    await client.stop();
  });

  it("approve-for-session and a session rule stop the asking for that command", async () => {
    sdk.server.enqueue(
      toolCall("bash", { command: "echo once", description: "echo" }),
      text("First."),
      toolCall("bash", { command: "echo twice", description: "echo" }),
      text("Second."),
      toolCall("bash", { command: "pwd", description: "pwd" }),
      text("Third."),
    );
    const handler = recordingHandler({ kind: "approve-for-session" });
    const asked = () => handler.asked.map((request) => (request as { fullCommandText?: string }).fullCommandText);
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: handler.onPermissionRequest });
    await session.sendAndWait({ prompt: "echo" });
    await session.sendAndWait({ prompt: "echo again" });
    expect(asked()).toEqual(["echo once"]);
    await session.rpc.permissions.modifyRules({ scope: "session", add: [{ kind: "commands", argument: "pwd" }] });
    await session.sendAndWait({ prompt: "pwd" });
    expect(asked()).toEqual(["echo once"]);
    await client.stop();
  });

  it("without a handler a read-only command still runs (nobody is asked)", async () => {
    sdk.server.enqueue(toolCall("bash", { command: "echo no_handler_ran", description: "echo" }), text("Done."));
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model" });
    const completions: SessionEvent[] = [];
    session.on("tool.execution_complete", (event) => void completions.push(event));
    await session.sendAndWait({ prompt: "echo" });
    expect(completions).toHaveLength(1);
    expect(JSON.stringify(completions[0]?.data)).toContain("no_handler_ran");
    await client.stop();
  });

  it("parallel client tools' permission questions are asked together; a rejected result ends the turn", async () => {
    sdk.server.enqueue(
      toolCalls([
        { name: "first_tool", arguments: {} },
        { name: "second_tool", arguments: {} },
      ]),
    );
    const ran: string[] = [];
    const tool = (name: string) =>
      defineTool(name, {
        description: `The ${name}`,
        parameters: { type: "object", properties: {} },
        handler: () => {
          ran.push(name);
          return { textResultForLlm: `${name} done`, resultType: "rejected" as const };
        },
      });
    let arrivals = 0;
    let bothArrived: () => void = () => undefined;
    const both = new Promise<void>((resolve) => (bothArrived = resolve));
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: sdk.provider(),
      model: "scripted-model",
      tools: [tool("first_tool"), tool("second_tool")],
      // Neither is answered before both are asked: asking one at a time would never finish.
      onPermissionRequest: async () => {
        if (++arrivals === 2) bothArrived();
        await both;
        return { kind: "approve-once" };
      },
    });
    await session.sendAndWait({ prompt: "call both" });
    expect(arrivals).toBe(2);
    expect(ran.sort()).toEqual(["first_tool", "second_tool"]);
    // The rejected results end the turn: the model is not asked again.
    expect(sdk.server.completionRequests).toHaveLength(1);
    await client.stop();
  });

  it("a plain reject of a read ends the turn with Copilot's words", async () => {
    const file = path.join(sdk.world.cwd, "protected.txt");
    writeFileSync(file, "protected content");
    sdk.server.enqueue(toolCall("view", { path: file }));
    const errors: string[] = [];
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: () => ({ kind: "reject" }) });
    session.on("tool.execution_complete", (event) => void (event.data.error ? errors.push(event.data.error.message) : undefined));
    await session.sendAndWait({ prompt: "read it" });
    expect(errors).toEqual(["The user rejected this tool call."]);
    expect(sdk.server.completionRequests).toHaveLength(1);
    await client.stop();
  });
});
