/**
 * The slash-command, task, user-shell and form methods (session.commands.*, session.tasks.*,
 * session.shell.*, session.ui.elicitation), through the real Copilot SDK and the real bin/agent.js: client
 * commands run by the client that brought them, commands.changed and capabilities.changed as clients come
 * and go, and `!cmd` runs a client starts and stops.
 */
import { describe, expect, it } from "vitest";
import { approveAll, type CommandContext, type CopilotClient } from "@github/copilot-sdk";
import { text } from "../support/scripted-server.js";
import { nextEvent, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

const open = (client: CopilotClient, extra: Parameters<CopilotClient["createSession"]>[0] = { onPermissionRequest: approveAll }) =>
  client.createSession({ provider: sdk.provider(), model: "scripted-model", ...extra });

describe("SDK slash-command and task methods", () => {
  it("lists built-in and client commands apart, runs a client command by its client, and a built-in as typed", async () => {
    const ran: CommandContext[] = [];
    const session = await open(sdk.world.client(), {
      onPermissionRequest: approveAll,
      commands: [{ name: "deploy", description: "Deploy the app", handler: (context) => void ran.push(context) }],
    });
    const clientOnly = await session.rpc.commands.list({ includeBuiltins: false, includeClientCommands: true, includeSkills: false });
    expect(clientOnly.commands).toEqual([expect.objectContaining({ name: "deploy", kind: "client", description: "Deploy the app" })]);
    const builtin = await session.rpc.commands.list({ includeBuiltins: true, includeClientCommands: false, includeSkills: false });
    expect(builtin.commands.some((command) => command.name === "help" && command.kind === "builtin")).toBe(true);
    expect(builtin.commands.some((command) => command.name === "deploy")).toBe(false);

    expect(await session.rpc.commands.execute({ commandName: "deploy", args: "production" })).toEqual({});
    expect(ran).toEqual([{ sessionId: session.sessionId, command: "/deploy production", commandName: "deploy", args: "production" }]);
    const help = await session.rpc.commands.invoke({ name: "/help" });
    expect(help.kind === "text" && help.text).toMatch(/\/compact/);
    await expect(session.rpc.commands.invoke({ name: "no-such-command" })).rejects.toThrow(/Unknown command/);
    expect(await session.rpc.commands.execute({ commandName: "no-such-command", args: "" })).toEqual({ error: "Unknown command: /no-such-command" });
    expect(await session.rpc.commands.enqueue({ command: "/help" })).toEqual({ queued: true });
    expect((await session.rpc.commands.respondToQueuedCommand({ requestId: "missing", result: { handled: false } })).success).toBe(false);
  });

  it("tells the first client when a second joins with commands or a form handler, and when it leaves", async () => {
    const { port } = await sdk.world.tcpServer("joins");
    const first = await open(sdk.world.connect(port, "joins"));
    const commandsChanged = nextEvent(first, "commands.changed");
    const enabled = nextEvent(first, "capabilities.changed", (event) => event.data.ui?.elicitation === true);
    const second = sdk.world.connect(port, "joins");
    await second.resumeSession(first.sessionId, {
      onPermissionRequest: approveAll,
      onElicitationRequest: () => ({ action: "accept", content: { answer: "yes" } }),
      commands: [{ name: "deploy", description: "Deploy", handler: () => undefined }],
      suppressResumeEvent: true,
    });
    expect((await commandsChanged).data.commands).toEqual([{ name: "deploy", description: "Deploy" }]);
    await enabled;
    expect(first.capabilities.ui?.elicitation).toBe(true);

    // A form the first client puts is answered by the one that can answer forms.
    const schema = { type: "object" as const, properties: { answer: { type: "string" as const } } };
    expect(await first.rpc.ui.elicitation({ message: "Ship it?", requestedSchema: schema })).toEqual({ action: "accept", content: { answer: "yes" } });

    const disabled = nextEvent(first, "capabilities.changed", (event) => event.data.ui?.elicitation === false);
    await second.forceStop();
    await disabled;
    await expect(first.rpc.ui.elicitation({ message: "Again?", requestedSchema: schema })).rejects.toThrow(/not supported/);
  });

  it("answers for tasks that do not exist, and refuses to start one directly with the reason", async () => {
    const session = await open(sdk.world.client());
    expect(await session.rpc.tasks.list()).toEqual({ tasks: [] });
    expect((await session.rpc.tasks.getProgress({ id: "missing" })).progress).toBeNull();
    expect(await session.rpc.tasks.cancel({ id: "missing" })).toEqual({ cancelled: false });
    expect(await session.rpc.tasks.promoteToBackground({ id: "missing" })).toEqual({ promoted: false });
    expect((await session.rpc.tasks.sendMessage({ id: "missing", message: "hi" })).sent).toBe(false);
    await expect(session.rpc.tasks.startAgent({ agentType: "missing-type", prompt: "hi", name: "x" })).rejects.toThrow(/Unknown agent type/);
    expect((await session.rpc.commands.handlePendingCommand({ requestId: "missing" })).success).toBe(true);
    expect((await session.rpc.ui.handlePendingUserInput({ requestId: "missing", response: { answer: "a", wasFreeform: true } })).success).toBe(false);
    const { handle } = await session.rpc.ui.registerDirectAutoModeSwitchHandler();
    expect(await session.rpc.ui.unregisterDirectAutoModeSwitchHandler({ handle })).toEqual({ unregistered: true });
    expect(await session.rpc.ui.unregisterDirectAutoModeSwitchHandler({ handle })).toEqual({ unregistered: false });
  });

  it("runs the user's shell commands as !cmd does, with their output and exit code, and stops them", async () => {
    const session = await open(sdk.world.client());
    const done = await session.rpc.shell.executeUserRequested({ requestId: "r1", command: "echo shell-marker; exit 3" });
    expect(done).toMatchObject({ success: false, exitCode: 3 });
    expect(done.output).toContain("shell-marker");
    expect(done.toolCallId).toBeTruthy();

    expect(await session.rpc.shell.cancelUserRequested({ requestId: "missing" })).toEqual({ cancelled: false });
    let started = nextEvent(session, "tool.execution_start");
    const long = session.rpc.shell.executeUserRequested({ requestId: "r2", command: "sleep 60" });
    await started;
    expect(await session.rpc.shell.cancelUserRequested({ requestId: "r2" })).toEqual({ cancelled: true });
    expect((await long).success).toBe(false);

    // exec answers once the command started; kill stops it.
    started = nextEvent(session, "tool.execution_start");
    const { processId } = await session.rpc.shell.exec({ command: "sleep 60", cwd: sdk.world.cwd });
    expect(processId).toBeTruthy();
    await started;
    const ended = nextEvent(session, "tool.execution_complete");
    expect(await session.rpc.shell.kill({ processId })).toEqual({ killed: true });
    await ended;
    expect(await session.rpc.shell.kill({ processId })).toEqual({ killed: false });
  });

  it("answers a question beside the conversation with the system prompt alone, recording nothing", async () => {
    sdk.server.enqueue(text("First answer."), text("Blue."));
    const session = await open(sdk.world.client());
    await session.sendAndWait({ prompt: "first" });
    const before = (await session.getEvents()).length;
    expect(await session.rpc.ui.ephemeralQuery({ question: "What colour is the sky?" })).toEqual({ answer: "Blue." });
    const asked = sdk.server.completionRequests.at(-1)?.body as { messages: { role: string; content: unknown }[]; tools?: unknown[] };
    expect(asked.messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(asked.messages[1]?.content).toEqual("What colour is the sky?");
    expect(asked.tools ?? []).toEqual([]);
    expect((await session.getEvents()).length).toBe(before);
  });
});
