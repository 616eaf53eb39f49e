/**
 * What an SDK application's hooks and tools change in what the model sees, through the real Copilot SDK and the
 * real bin/agent.js: a hook's rewrites (modifiedPrompt, modifiedTransformedPrompt, modifiedArgs, modifiedResult,
 * an MCP request's _meta), a client tool's result types (rejected ends the turn, denied keeps its code, a
 * thrown error stays with the client), a plain reject of a permission, and the SDK's tool-set patterns.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, defineTool, type SessionEvent } from "@github/copilot-sdk";
import { text, toolCall, type ChatMessageLike } from "../support/scripted-server.js";
import { recordEvents, scriptedProvider, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

const messagesOf = (request: number): ChatMessageLike[] => sdk.server.completionRequests[request]?.body.messages ?? [];
const toolMessage = (request: number): string => String(messagesOf(request).find((message) => message.role === "tool")?.content);
const lastUserMessage = (request: number): string =>
  String(
    messagesOf(request)
      .filter((message) => message.role === "user")
      .at(-1)?.content,
  );
const completes = (events: SessionEvent[]) => events.flatMap((event) => (event.type === "tool.execution_complete" ? [event.data] : []));

function session(options: Omit<Parameters<ReturnType<typeof sdk.world.client>["createSession"]>[0], "provider" | "model">) {
  const client = sdk.world.client();
  const created = client.createSession({
    provider: scriptedProvider(sdk.server.baseUrl),
    model: "scripted-model",
    onPermissionRequest: approveAll,
    ...options,
  });
  return { client, created };
}

describe("SDK hooks that rewrite what the model sees", () => {
  it("userPromptSubmitted's modifiedPrompt replaces the prompt the model gets; the event keeps the one typed", async () => {
    sdk.server.enqueue(text("Hooked."));
    const { client, created } = session({ hooks: { onUserPromptSubmitted: () => ({ modifiedPrompt: "PROMPT_FROM_HOOK" }) } });
    const events = recordEvents(await created);
    await (await created).sendAndWait({ prompt: "the typed prompt" });
    expect(lastUserMessage(0)).toContain("PROMPT_FROM_HOOK");
    expect(lastUserMessage(0)).not.toContain("the typed prompt");
    expect(events.find((event) => event.type === "user.message")?.data).toMatchObject({ content: "the typed prompt" });
    await client.stop();
  });

  it("userPromptTransformed sees the built message (date and all) and may replace it whole", async () => {
    sdk.server.enqueue(text("Transformed."));
    const seen: string[] = [];
    const { client, created } = session({
      hooks: {
        onUserPromptTransformed: (input) => {
          seen.push(input.transformedPrompt);
          return { modifiedTransformedPrompt: "THE_WHOLE_MESSAGE" };
        },
      },
    });
    await (await created).sendAndWait({ prompt: "answer this" });
    expect(seen[0]).toContain("answer this");
    expect(seen[0]).toContain("<current_datetime>");
    expect(lastUserMessage(0)).toBe("THE_WHOLE_MESSAGE");
    await client.stop();
  });

  it("preToolUse's modifiedArgs run the call, and the history shows them; postToolUse's modifiedResult is what the model reads", async () => {
    writeFileSync(path.join(sdk.world.cwd, "real.txt"), "the real content\n");
    sdk.server.enqueue(toolCall("echo_value", { value: "original" }), toolCall("view", { path: path.join(sdk.world.cwd, "real.txt") }), text("Done."));
    const ran: string[] = [];
    const echo = defineTool("echo_value", {
      description: "Echoes the value",
      parameters: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
      handler: ({ value }: { value: string }) => {
        ran.push(value);
        return value;
      },
    });
    const { client, created } = session({
      tools: [echo],
      hooks: {
        onPreToolUse: (input) => (input.toolName === "echo_value" ? { permissionDecision: "allow", modifiedArgs: { value: "rewritten by hook" } } : undefined),
        onPostToolUse: (input) => (input.toolName === "view" ? { modifiedResult: { textResultForLlm: "RESULT_FROM_HOOK", resultType: "success" } } : undefined),
      },
    });
    await (await created).sendAndWait({ prompt: "echo, then read" });
    expect(ran).toEqual(["rewritten by hook"]);
    const calls = messagesOf(1).find((message) => message.role === "assistant")?.tool_calls as { function: { arguments: string } }[] | undefined;
    const call = calls?.[0];
    expect(call?.function.arguments).toBe(JSON.stringify({ value: "rewritten by hook" }));
    expect(toolMessage(1)).toBe("rewritten by hook");
    const results = messagesOf(2).filter((message) => message.role === "tool");
    expect(results.at(-1)?.content).toBe("RESULT_FROM_HOOK");
    expect(JSON.stringify(messagesOf(2))).not.toContain("the real content");
    await client.stop();
  });

  it("preMcpToolCall sets an MCP request's _meta, and null removes it", async () => {
    sdk.server.enqueue(toolCall("mini-echo_meta", { value: "first" }), text("Set."), toolCall("mini-echo_meta", { value: "second" }), text("Removed."));
    const inputs: { serverName: string; toolName: string }[] = [];
    const { client, created } = session({
      mcpServers: {
        mini: {
          type: "local",
          command: process.execPath,
          args: ["--import", "tsx", path.resolve("test/support/mcp-test-server.ts"), "--stdio"],
          workingDirectory: path.resolve("."),
          tools: ["*"],
        },
      },
      hooks: {
        onPreMcpToolCall: (input) => {
          inputs.push({ serverName: input.serverName, toolName: input.toolName });
          return { metaToUse: inputs.length === 1 ? { injected: "by-hook" } : null };
        },
      },
    });
    const opened = await created;
    await opened.sendAndWait({ prompt: "set it" }, 30_000);
    expect(JSON.parse(toolMessage(1))).toEqual({ meta: { injected: "by-hook" }, value: "first" });
    await opened.sendAndWait({ prompt: "remove it" }, 30_000);
    expect(
      JSON.parse(
        String(
          messagesOf(3)
            .filter((message) => message.role === "tool")
            .at(-1)?.content,
        ),
      ),
    ).toEqual({ meta: null, value: "second" });
    expect(inputs).toEqual([
      { serverName: "mini", toolName: "echo_meta" },
      { serverName: "mini", toolName: "echo_meta" },
    ]);
    await client.stop();
  });
});

describe("SDK client tools' results and refusals", () => {
  it("a rejected result ends the turn without another model call; the event carries its code", async () => {
    sdk.server.enqueue(toolCall("deploy", {}), text("never asked for"));
    const deploy = defineTool("deploy", {
      description: "Deploys",
      parameters: { type: "object", properties: {} },
      handler: () => ({ textResultForLlm: "Deployment rejected by policy", resultType: "rejected" as const }),
    });
    const { client, created } = session({ tools: [deploy] });
    const events = recordEvents(await created);
    await (await created).sendAndWait({ prompt: "deploy" });
    expect(sdk.server.completionRequests).toHaveLength(1);
    expect(completes(events)[0]).toMatchObject({ success: false, error: { code: "rejected", message: "Deployment rejected by policy" } });
    await client.stop();
  });

  it("a denied result goes back to the model with its code; a thrown error's text stays with the client", async () => {
    sdk.server.enqueue(toolCall("read_secret", {}), text("Denied, then."), toolCall("locate", {}), text("unknown"));
    const secret = defineTool("read_secret", {
      description: "Reads a secret",
      parameters: { type: "object", properties: {} },
      handler: () => ({ textResultForLlm: "Access denied: not yours", resultType: "denied" as const }),
    });
    const locate = defineTool("locate", {
      description: "Finds the user",
      parameters: { type: "object", properties: {} },
      handler: () => {
        throw new Error("SECRET_STACK_DETAIL");
      },
    });
    const { client, created } = session({ tools: [secret, locate] });
    const opened = await created;
    const events = recordEvents(opened);
    await opened.sendAndWait({ prompt: "read it" });
    expect(completes(events)[0]).toMatchObject({ success: false, error: { code: "denied" } });
    expect(toolMessage(1)).toBe("Access denied: not yours");
    await opened.sendAndWait({ prompt: "where am I?" });
    const thrown = String(
      messagesOf(3)
        .filter((message) => message.role === "tool")
        .at(-1)?.content,
    );
    expect(thrown).not.toContain("SECRET_STACK_DETAIL");
    expect(thrown).toMatch(/^Failed to execute `locate` tool with arguments: \{\} due to error: Error: Tool execution failed$/);
    await client.stop();
  });

  it("a plain reject of a permission ends the turn; the tool does not run", async () => {
    const marker = path.join(sdk.world.cwd, "rejected.txt");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("never asked for"));
    const { client, created } = session({ onPermissionRequest: () => ({ kind: "reject" }) });
    const events = recordEvents(await created);
    await (await created).sendAndWait({ prompt: "touch it" });
    expect(sdk.server.completionRequests).toHaveLength(1);
    expect(completes(events)[0]?.success).toBe(false);
    expect(events.at(-1)?.type).toBe("session.idle");
    await client.stop();
  });

  it("availableTools reads the SDK's tool-set patterns: custom:* and builtin:<name>", async () => {
    sdk.server.enqueue(text("ok"));
    const mine = defineTool("my_tool", { description: "Mine", parameters: { type: "object", properties: {} }, handler: () => "mine" });
    const { client, created } = session({ tools: [mine], availableTools: ["custom:*", "builtin:view"] });
    await (await created).sendAndWait({ prompt: "hi" });
    const offered = ((sdk.server.completionRequests[0]?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name).sort();
    expect(offered).toEqual(["my_tool", "view"]);
    await client.stop();
  });
});

describe("hooks as a session ends", () => {
  it("asks the client's sessionEnd hook when the client disconnects the session", async () => {
    sdk.server.enqueue(text("Bye."));
    let ended!: (reason: string) => void;
    const sessionEnd = new Promise<string>((resolve) => (ended = resolve));
    const { client, created } = session({ hooks: { onSessionEnd: (input) => void ended(input.reason) } });
    const opened = await created;
    await opened.sendAndWait({ prompt: "say bye" });
    await opened.disconnect();
    expect(typeof (await sessionEnd)).toBe("string");
    await client.stop();
  });
});

describe("tools.list", () => {
  it("lists the built-in tools with their parameters, without a session; mode-only tools are not among them", async () => {
    const client = sdk.world.client();
    await client.start();
    const { tools } = await client.rpc.tools.list({});
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["bash", "view", "edit", "create", "grep", "glob", "web_fetch"]));
    expect(names).not.toContain("task_complete");
    expect(tools.find((tool) => tool.name === "view")?.parameters).toMatchObject({ type: "object", properties: { path: { type: "string" } } });
    expect(tools.every((tool) => tool.description.length > 0)).toBe(true);
    await client.stop();
  });
});
