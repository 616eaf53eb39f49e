/**
 * A small MCP server for the tests, built with the SDK's server classes. Run as a stdio server
 * (`node --import tsx test/support/mcp-test-server.ts`) or served over streamable HTTP in-process
 * (serveHttp). Every call is appended to $MCP_TEST_LOG when set, so a test can tell whether a call
 * reached the server at all.
 */
import { spawn } from "node:child_process";
import { appendFileSync, existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";
import { z } from "zod";

function record(tool: string, args: unknown): void {
  const log = process.env.MCP_TEST_LOG;
  if (log) appendFileSync(log, `${JSON.stringify({ tool, args })}\n`);
}

export function createTestServer(): McpServer {
  // MCP tasks (tools that must run as tasks) only when asked for, so the other tests see the usual tool list.
  const taskStore = process.env.MCP_TEST_TASKS ? new InMemoryTaskStore() : undefined;
  const server = new McpServer(
    { name: "mini", version: "1.0.0" },
    {
      capabilities: { tools: { listChanged: true }, ...(taskStore ? { tasks: { requests: { tools: { call: {} } }, cancel: {}, list: {} } } : {}) },
      instructions: "Prefer mini-echo_text for echoes.",
      ...(taskStore ? { taskStore } : {}),
    },
  );
  if (taskStore) registerTaskTools(server, taskStore);
  server.registerTool(
    "echo_text",
    { description: "Echoes the text back", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => {
      record("echo_text", { text });
      return {
        content: [
          { type: "text", text: `echo: ${text}` },
          { type: "image", data: "aGk=", mimeType: "image/png" },
        ],
      };
    },
  );
  // The request's `_meta` as sent (a preMcpToolCall hook's), without the progress token the client adds itself.
  server.registerTool("echo_meta", { description: "Echoes the request's _meta", inputSchema: { value: z.string() } }, async ({ value }, extra) => {
    const { progressToken: _token, ...meta } = extra._meta ?? {};
    return { content: [{ type: "text", text: JSON.stringify({ meta: Object.keys(meta).length > 0 ? meta : null, value }) }] };
  });
  server.registerTool("fail", { description: "Always fails" }, async () => {
    record("fail", {});
    return { content: [{ type: "text", text: "it went wrong on purpose" }], isError: true };
  });
  server.registerTool("count", { description: "Counts with progress", inputSchema: { to: z.number() } }, async ({ to }, extra) => {
    record("count", { to });
    const token = extra._meta?.progressToken;
    for (let step = 1; step <= to; step++) {
      if (token !== undefined)
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: step, total: to, message: `step ${step}` },
        });
      // Work between steps, as a real tool has. With MCP_TEST_STEP_GATE the next step (and the result) waits
      // until the test has seen this one arrive and writes <gate>/<step>: a progress message sent in the same
      // read as the result is dropped by the SDK, so only the test can say when it is safe to go on.
      const gate = process.env.MCP_TEST_STEP_GATE;
      if (gate) while (!existsSync(path.join(gate, String(step)))) await new Promise((resolve) => setTimeout(resolve, 10));
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { content: [{ type: "text", text: `counted to ${to}` }] };
  });
  server.registerTool("hang", { description: "Never answers until cancelled" }, async (extra) => {
    record("hang", {});
    await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve(), { once: true }));
    record("hang_cancelled", {});
    return { content: [{ type: "text", text: "cancelled" }] };
  });
  server.registerTool("crash", { description: "Exits the server mid-call" }, async () => {
    record("crash", {});
    process.exit(7);
  });
  server.registerTool("show_env", { description: "Shows an environment variable", inputSchema: { name: z.string() } }, async ({ name }) => {
    record("show_env", { name });
    return { content: [{ type: "text", text: `${name}=${process.env[name] ?? "(unset)"}` }] };
  });
  server.registerTool("ask_name", { description: "Asks the user for a name (elicitation)" }, async () => {
    record("ask_name", {});
    const answer = await server.server.elicitInput({
      mode: "form",
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return { content: [{ type: "text", text: `${answer.action}${answer.content ? `: ${String(answer.content.name)}` : ""}` }] };
  });
  server.registerTool("add_tool", { description: "Adds the tool late_tool (tools/list_changed)" }, async () => {
    record("add_tool", {});
    server.registerTool("late_tool", { description: "Appeared later" }, async () => ({ content: [{ type: "text", text: "late" }] }));
    return { content: [{ type: "text", text: "added late_tool" }] };
  });
  return server;
}

/**
 * Two tools that require task support: `report` works through its steps (status messages as progress) and
 * stores its result; `forever` works until the client cancels the task, then records that it saw the cancel.
 */
function registerTaskTools(server: McpServer, store: InMemoryTaskStore): void {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  server.experimental.tasks.registerToolTask(
    "report",
    { description: "Writes a report as a task", inputSchema: { steps: z.number() }, execution: { taskSupport: "required" } },
    {
      createTask: async ({ steps }, extra) => {
        record("report", { steps });
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 20 });
        void (async () => {
          for (let step = 1; step <= steps; step++) {
            await store.updateTaskStatus(task.taskId, "working", `step ${step} of ${steps}`);
            await pause();
          }
          await store.storeTaskResult(task.taskId, "completed", { content: [{ type: "text", text: `report ready after ${steps} steps` }] });
        })();
        return { task };
      },
      getTask: async (_args, extra) => (await extra.taskStore.getTask(extra.taskId)) as never,
      getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as never,
    },
  );
  server.experimental.tasks.registerToolTask(
    "forever",
    { description: "Works until cancelled, as a task", execution: { taskSupport: "required" } },
    {
      createTask: async (extra) => {
        record("forever", {});
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 20 });
        void (async () => {
          await store.updateTaskStatus(task.taskId, "working", "working on it");
          while ((await store.getTask(task.taskId))?.status !== "cancelled") await pause();
          record("task_cancelled", { taskId: task.taskId });
        })();
        return { task };
      },
      getTask: async (extra) => (await extra.taskStore.getTask(extra.taskId)) as never,
      getTaskResult: async (extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as never,
    },
  );
}

/** Serves a fresh test server per session over streamable HTTP on 127.0.0.1; resolves to its URL. */
export async function serveHttp(): Promise<{ url: string; close(): Promise<void>; server: Server }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (request, response) => {
    const id = request.headers["mcp-session-id"];
    let transport = typeof id === "string" ? transports.get(id) : undefined;
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sessionId) => void transports.set(sessionId, created),
      });
      await createTestServer().connect(created);
      transport = created;
    }
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const address = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    server: http,
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

if (process.argv.includes("--stdio")) {
  process.stderr.write("mini server starting\n");
  record("started", { pid: process.pid });
  // A helper of the server's own (as an npx wrapper or a forking server has): it must end with the server's group.
  if (process.argv.includes("--spawn-child")) record("child", { pid: spawn("sleep", ["300"], { stdio: "ignore" }).pid });
  // A slow start: the server answers nothing until the test creates this file (from the environment, so the
  // server's configuration, and with it the key of its cached tool list, stays the same).
  const marker = process.env.MCP_TEST_WAIT_FOR;
  // A slow start on the server's own clock (MCP_TEST_START_DELAY_MS): the test waits on the agent, never on a timer.
  const delay = Number(process.env.MCP_TEST_START_DELAY_MS ?? 0);
  if (delay > 0) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    record("ready", {});
  }
  if (marker) {
    while (!existsSync(marker)) await new Promise((resolve) => setTimeout(resolve, 10));
    record("ready", {});
  }
  await createTestServer().connect(new StdioServerTransport());
}
