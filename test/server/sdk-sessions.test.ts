/**
 * Sessions across clients and processes through the real Copilot SDK and the real bin/agent.js: resume in
 * a new process, list and delete, two sessions in one server, questions for the client, a client that
 * goes away mid-turn (over TCP, where the server outlives its clients), and the protocol's errors.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { CopilotClient, RuntimeConnection, approveAll } from "@github/copilot-sdk";
import { createMessageConnection, SocketMessageReader, SocketMessageWriter, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js";
import { AGENT_BIN, runAgent } from "../support/run-agent.js";
import { startScriptedServer, text, toolCall } from "../support/scripted-server.js";
import { nextEvent, scriptedProvider, useSdkWorld } from "../support/sdk-client.js";

const children: ChildProcess[] = [];

const sdk = useSdkWorld();

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

const provider = () => sdk.provider();

describe("SDK sessions", () => {
  it("resumes a session in a new client process, with its history", async () => {
    sdk.server.enqueue(text("The secret word is heron."), text("You told me heron."));
    const first = sdk.world.client();
    const session = await first.createSession({ provider: provider(), model: "scripted-model", onPermissionRequest: approveAll });
    await session.sendAndWait({ prompt: "Remember: heron" });
    expect(await first.stop()).toEqual([]);

    const second = sdk.world.client();
    const resumed = await second.resumeSession(session.sessionId, { provider: provider(), model: "scripted-model", onPermissionRequest: approveAll });
    expect((await resumed.sendAndWait({ prompt: "What was the word?" }))?.data.content).toBe("You told me heron.");
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body.messages)).toContain("The secret word is heron.");
    const types = (await resumed.getEvents()).map((event) => event.type);
    expect(types.filter((type) => type === "session.start")).toHaveLength(1);
    expect(types).toContain("session.resume");
    await expect(second.resumeSession("no-such-session", { provider: provider(), onPermissionRequest: approveAll })).rejects.toThrow(/not found/i);
    await second.stop();
  });

  it("resumes through the SDK a session started with agent -p, and -p resumes it back", async () => {
    sdk.server.enqueue(text("Started in the terminal."), text("Continued through the SDK."), text("Back in the terminal."));
    const env = { ...sdk.world.env, OPENAI_BASE_URL: sdk.server.baseUrl, OPENAI_API_KEY: "test-key", AGENT_MODEL: "scripted-model" };
    const first = await runAgent(["-p", "start here"], { env, cwd: sdk.world.cwd });
    const id = /agent --resume (\S+)/.exec(first.stderr)?.[1] as string;
    expect(id).toBeDefined();
    const client = sdk.world.client();
    const session = await client.resumeSession(id, { provider: provider(), model: "scripted-model", onPermissionRequest: approveAll });
    expect((await session.sendAndWait({ prompt: "go on" }))?.data.content).toBe("Continued through the SDK.");
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body.messages)).toContain("Started in the terminal.");
    await client.stop();
    const last = await runAgent(["--resume", id, "-p", "and now?"], { env, cwd: sdk.world.cwd });
    expect(last.stdout).toContain("Back in the terminal.");
    expect(JSON.stringify(sdk.server.completionRequests[2]?.body.messages)).toContain("Continued through the SDK.");
  });

  it("lists and deletes sessions", async () => {
    sdk.server.enqueue(text("one"));
    const client = sdk.world.client();
    const session = await client.createSession({ provider: provider(), model: "scripted-model", onPermissionRequest: approveAll });
    await session.sendAndWait({ prompt: "first prompt" });
    const listed = await client.listSessions();
    expect(listed.map((item) => item.sessionId)).toContain(session.sessionId);
    expect(listed.find((item) => item.sessionId === session.sessionId)?.summary).toBe("first prompt");
    expect(await client.getLastSessionId()).toBe(session.sessionId);
    await client.deleteSession(session.sessionId);
    expect((await client.listSessions()).map((item) => item.sessionId)).not.toContain(session.sessionId);
    expect(existsSync(path.join(sdk.world.home, "session-state", session.sessionId))).toBe(false);
    await client.stop();
  });

  it("serves two sessions at once, each with its own working directory", async () => {
    const dirs = ["alpha", "beta"].map((name) => path.join(sdk.world.cwd, name));
    for (const dir of dirs) mkdirSync(dir);
    // Each answer names the directory the request's system prompt gives: the sessions do not mix.
    const own = await startScriptedServer({
      responder: (request) => {
        const system = JSON.stringify(request.body.messages[0]);
        return text(system.includes(dirs[0] as string) ? "in alpha" : system.includes(dirs[1] as string) ? "in beta" : "lost", { chunkDelayMs: 5 });
      },
    });
    onTestFinished(() => own.close());
    const client = sdk.world.client();
    const [a, b] = await Promise.all(
      dirs.map((dir) =>
        client.createSession({ provider: scriptedProvider(own.baseUrl), model: "scripted-model", workingDirectory: dir, onPermissionRequest: approveAll }),
      ),
    );
    const answers = await Promise.all([a?.sendAndWait({ prompt: "where?" }), b?.sendAndWait({ prompt: "where?" })]);
    expect(answers.map((answer) => answer?.data.content)).toEqual(["in alpha", "in beta"]);
    await client.stop();
  });

  it("asks the client's user-input handler for ask_user", async () => {
    sdk.server.enqueue(toolCall("ask_user", { question: "Which colour?", choices: ["red", "blue"] }), text("Blue it is."));
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: provider(),
      model: "scripted-model",
      onPermissionRequest: approveAll,
      onUserInputRequest: (request) => ({ answer: request.choices?.[1] ?? "none", wasFreeform: false }),
    });
    expect((await session.sendAndWait({ prompt: "pick" }))?.data.content).toBe("Blue it is.");
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body.messages)).toContain("User selected: blue");
    // Someone answers questions here, so the model is not told it runs unattended.
    expect(String(sdk.server.completionRequests[0]?.body.messages[0]?.content)).not.toContain("running non-interactively");
    await client.stop();
  });

  it("denies what needs permission when the client has no permission handler", async () => {
    const marker = path.join(sdk.world.cwd, "never.txt");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("ok"));
    const client = sdk.world.client();
    const session = await client.createSession({ provider: provider(), model: "scripted-model" } as Parameters<CopilotClient["createSession"]>[0]);
    await session.sendAndWait({ prompt: "touch it" });
    expect(existsSync(marker)).toBe(false);
    expect(String(sdk.server.completionRequests[0]?.body.messages[0]?.content)).toContain("running non-interactively");
    await client.stop();
  });

  it("over stdio: a client that goes away mid-turn (stdin closed) leaves a closed log, no lock, and the server exits", async () => {
    sdk.server.enqueue({ kind: "stream", text: "a long answer that never ends", hangAfterChunks: 2 });
    const child = spawn(process.execPath, [AGENT_BIN, "--headless", "--stdio"], { cwd: sdk.world.cwd, env: sdk.world.env, stdio: ["pipe", "pipe", "pipe"] });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const rpc = createMessageConnection(
      new StreamMessageReader(child.stdout as NodeJS.ReadableStream),
      new StreamMessageWriter(child.stdin as NodeJS.WritableStream),
    );
    rpc.listen();
    const sessionId = "stdio-gone";
    await rpc.sendRequest("connect", {});
    await rpc.sendRequest("session.create", { sessionId, model: "scripted-model", provider: provider(), requestPermission: true });
    await rpc.sendRequest("session.send", { sessionId, prompt: "talk" });
    await sdk.server.waitForHang();
    rpc.dispose();
    child.stdin?.end();
    expect(await exited).toBe(0);
    const dir = path.join(sdk.world.home, "session-state", sessionId);
    expect(existsSync(path.join(dir, "session.lock"))).toBe(false);
    const types = readFileSync(path.join(dir, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).type);
    expect(types).toContain("abort");
    expect(types.at(-1)).toBe("session.shutdown");
  });

  it("works over TCP when the SDK starts the server itself (a free port, read from its stdout)", async () => {
    sdk.server.enqueue(text("Over TCP."));
    const client = sdk.world.client({ tcp: true });
    const session = await client.createSession({ provider: provider(), model: "scripted-model", onPermissionRequest: approveAll });
    expect((await session.sendAndWait({ prompt: "hi" }))?.data.content).toBe("Over TCP.");
    expect(await client.stop()).toEqual([]);
  });

  it("over TCP: checks the token, answers unknown methods with method-not-found, and closes a vanished client's session", async () => {
    const { port, child } = await sdk.world.tcpServer("s3cret");
    const socket = net.connect(port, "127.0.0.1");
    const raw = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
    raw.listen();
    await expect(raw.sendRequest("connect", { token: "wrong" })).rejects.toMatchObject({ code: -32002 });
    await expect(raw.sendRequest("status.get", {})).rejects.toMatchObject({ code: -32002 });
    expect(await raw.sendRequest("connect", { token: "s3cret" })).toMatchObject({ ok: true, protocolVersion: 3 });
    await expect(raw.sendRequest("no.such.method", {})).rejects.toMatchObject({ code: -32601 });
    raw.dispose();
    socket.destroy();

    sdk.server.enqueue({ kind: "stream", text: "start of a long answer", hangAfterChunks: 2 });
    const client = new CopilotClient({ connection: RuntimeConnection.forUri(`127.0.0.1:${port}`, { connectionToken: "s3cret" }) });
    const session = await client.createSession({ provider: provider(), model: "scripted-model", streaming: true, onPermissionRequest: approveAll });
    const delta = nextEvent(session, "assistant.message_delta");
    await session.send({ prompt: "talk for ever" });
    await delta;
    await sdk.server.waitForHang();
    await client.forceStop();

    const dir = path.join(sdk.world.home, "session-state", session.sessionId);
    await expect.poll(() => existsSync(path.join(dir, "session.lock"))).toBe(false);
    const log = readFileSync(path.join(dir, "events.jsonl"), "utf8").trim().split("\n");
    expect(JSON.parse(log.at(-1) as string).type).toBe("session.shutdown");
    expect(log.some((line) => JSON.parse(line).type === "abort")).toBe(true);
    // The server lives on for other clients, and the session can be taken up again.
    expect(child.exitCode).toBeNull();
    sdk.server.enqueue(text("Back again."));
    const next = new CopilotClient({ connection: RuntimeConnection.forUri(`127.0.0.1:${port}`, { connectionToken: "s3cret" }) });
    const resumed = await next.resumeSession(session.sessionId, { provider: provider(), model: "scripted-model", onPermissionRequest: approveAll });
    expect((await resumed.sendAndWait({ prompt: "hello?" }))?.data.content).toBe("Back again.");
    await next.stop();
  });
});
