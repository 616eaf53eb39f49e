/**
 * The package is the product: `npm pack`, then `npm install -g` of the tarball into an empty prefix with no
 * network (test/support/packed-install.ts), and every part a run loads lazily used from that prefix's
 * bin/agent against the scripted server: an agent file and a skill (the YAML parser), the Responses and Anthropic wires
 * (their adapters, @anthropic-ai/sdk), a compound shell command (the tree-sitter parser), an `sql` call
 * (sql.js), a stdio MCP server (the MCP client), the TUI's first frame and its Markdown (ink, react, marked,
 * emphasize), the SDK server's handshake and the ACP server's. One pack and one install for the whole file.
 * Needs dist/ (built by `npm test` before vitest runs).
 */
import { spawn } from "node:child_process";
import { builtinModules } from "node:module";
import { copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { approveAll } from "@github/copilot-sdk";
import { PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { startAcpClient } from "../support/acp-client.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { packAndInstall, REPO_ROOT, type PackedInstall } from "../support/packed-install.js";
import { collect, type AgentRun } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { wireEnv } from "../support/test-wire.js";
import { scriptedProvider, sdkWorld } from "../support/sdk-client.js";
import { shellQuote } from "../support/tmux.js";
import { idle, sendPrompt, useTmuxAgent } from "../support/tmux-agent.js";

const MB = 1024 * 1024;

let packed: PackedInstall;
beforeAll(async () => {
  packed = await packAndInstall();
}, 180_000);

/** Disk usage of a tree as `du` counts it (allocated blocks of files and folders). */
function diskBytes(dir: string): number {
  let bytes = lstatSync(dir).blocks * 512;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    bytes += entry.isDirectory() ? diskBytes(full) : lstatSync(full).blocks * 512;
  }
  return bytes;
}

describe("the packed package", () => {
  it("has no runtime dependencies: the bundle carries them", () => {
    for (const root of [REPO_ROOT, packed.packageDir]) {
      const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
      expect(Object.keys(pkg.dependencies ?? {}), root).toEqual([]);
    }
    expect(existsSync(path.join(packed.packageDir, "node_modules"))).toBe(false);
  });

  // The TUI's early frame with options (`agent --resume <id> --model m`; a lone `--resume <id>` skips the parser)
  // needs commander and not zod or openai: deserialising those was ~25 ms of it (docs/benchmarks.md), so
  // commander is served by a bundle of its own.
  it("serves commander from its own bundle, not zod and openai's", () => {
    const chunks = path.join(packed.packageDir, "dist", "chunks");
    const sources = readdirSync(chunks)
      .filter((name) => name.endsWith(".js"))
      .map((name) => readFileSync(path.join(chunks, name), "utf8"));
    expect(sources.filter((source) => source.includes("commanderBundle().commander"))).toHaveLength(1);
    expect(sources.filter((source) => /vendorBundle\(\)\.commander\b/.test(source))).toEqual([]);
  });

  it("ships the vendored runtimes (the bash grammar only), no native binaries, no source maps, under 20 MB", () => {
    const files = packed.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "bin/agent.js",
        "bin/package.json",
        "dist/cli.js",
        "dist/vendor.cjs",
        "dist/vendor-commander.cjs",
        "dist/vendor-anthropic.cjs",
        "dist/agents-frontmatter.json",
        "dist/tree-sitter/tree-sitter.cjs",
        "dist/tree-sitter/tree-sitter.wasm",
        "dist/tree-sitter/tree-sitter-bash.wasm",
        "dist/sql/sql-wasm.cjs",
        "dist/sql/sql-wasm.wasm",
        "dist/yaml/yaml.cjs",
      ]),
    );
    expect(files.filter((file) => file.endsWith(".wasm")).sort()).toEqual([
      "dist/sql/sql-wasm.wasm",
      "dist/tree-sitter/tree-sitter-bash.wasm",
      "dist/tree-sitter/tree-sitter.wasm",
    ]);
    expect(files.filter((file) => file.endsWith(".node") || file.endsWith(".map"))).toEqual([]);
    expect(packed.unpackedSize).toBeLessThan(20 * MB);
  });

  it("loads no package at run time that it does not carry (every import and require in dist/ is bundled, vendored or Node's)", () => {
    const specifiers = new Set<string>();
    const name = '"([\\w@.][\\w@./:-]*)"';
    const pattern = new RegExp(
      `(?:\\brequire|__require|createRequire\\([^()]*\\))\\(\\s*${name}\\s*\\)|\\bimport\\(\\s*${name}\\s*\\)|\\bfrom\\s*${name}`,
      "g",
    );
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(c|m)?js$/.test(entry.name))
          for (const match of readFileSync(full, "utf8").matchAll(pattern)) specifiers.add(match[1] ?? match[2] ?? match[3] ?? "");
      }
    };
    walk(path.join(packed.packageDir, "dist"));
    const external = [...specifiers].filter((name) => !name.startsWith(".") && !name.startsWith("node:") && !builtinModules.includes(name));
    // Loaded only where their absence is handled: Ink's devtools (DEV=true, with its own message), ws's optional
    // native speed-ups (inside try). ajv's `require("ajv/dist/runtime/…")` are text of standalone code it never runs here.
    const optional = ["react-devtools-core", "bufferutil", "utf-8-validate"];
    expect(external.filter((name) => !optional.includes(name) && !/^ajv(-formats)?\//.test(name)).sort()).toEqual([]);
  });

  it("ships what a run reads from the package's folder (agents/, prompts/) and .copilot-example/", () => {
    for (const folder of ["agents", "prompts", ".copilot-example"]) {
      const inCheckout = readdirSync(path.join(REPO_ROOT, folder)).sort();
      expect(inCheckout.length, folder).toBeGreaterThan(0);
      expect(readdirSync(path.join(packed.packageDir, folder)).sort(), folder).toEqual(inCheckout);
    }
  });

  it("takes the installed size the README states", () => {
    const measured = diskBytes(packed.packageDir) / MB;
    const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const about = Number(/about (\d+(?:\.\d+)?) MB installed/.exec(readme)?.[1]);
    const table = Number(/\| Installed size \([^|]*\| (\d+(?:\.\d+)?) MB \|/.exec(readme)?.[1]);
    expect(about, "the README's 'about N MB installed'").toBeGreaterThan(0);
    expect(table, "the README's benchmark row 'Installed size'").toBeGreaterThan(0);
    expect(Math.abs(measured - about), `${measured.toFixed(2)} MB installed`).toBeLessThanOrEqual(1);
    expect(Math.abs(measured - table), `${measured.toFixed(2)} MB installed`).toBeLessThanOrEqual(0.5);
  });
});

describe("the installed bin/agent", () => {
  const ws = useE2eWorkspace({ prefix: "packed", removeDirs: true });

  /** Runs the installed command itself (its `#!/usr/bin/env node` line finds this node first on the PATH). */
  function runInstalled(args: string[], extraEnv: Record<string, string> = {}): Promise<AgentRun> {
    const env = ws.env(extraEnv);
    env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ""}`;
    return collect(spawn(packed.bin, args, { cwd: ws.cwd, env, stdio: ["ignore", "pipe", "pipe"] }));
  }

  /** The tool result the model got in its second request. */
  const toolResult = (): string => String(ws.server.completionRequests[1]?.body.messages.at(-1)?.content ?? "");

  it("loads a custom agent file (the YAML parser) with --agent", async () => {
    mkdirSync(path.join(ws.home, "agents"));
    writeFileSync(
      path.join(ws.home, "agents", "reader.agent.md"),
      "---\ndescription: >\n  Reads the code\n  and says what it found\ntools: [Read, Grep]\n---\nPACKED READER BODY\n",
    );
    ws.server.enqueue(text("done"));
    const run = await runInstalled(["--agent", "reader", "-p", "look around"]);
    expect(run.code, run.stderr).toBe(0);
    const body = ws.server.completionRequests[0]?.body;
    expect(String(body?.messages.find((message) => message.role === "system")?.content)).toContain("PACKED READER BODY");
    expect((body?.tools as { function: { name: string } }[]).map((tool) => tool.function.name).sort()).toEqual(["grep", "view"]);
  });

  it("reads a skill whose frontmatter only the YAML parser reads (a flow map) and lists it to the model", async () => {
    mkdirSync(path.join(ws.home, "skills", "tidy"), { recursive: true });
    writeFileSync(
      path.join(ws.home, "skills", "tidy", "SKILL.md"),
      "---\nname: tidy\ndescription: Tidies the packed repository.\nmetadata: { team: core }\n---\nTIDY BODY\n",
    );
    ws.server.enqueue(text("done"));
    const run = await runInstalled(["-p", "hi", "-s"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    const system = String(ws.server.completionRequests[0]?.body.messages.find((message) => message.role === "system")?.content);
    expect(system).toContain("Tidies the packed repository.");
  });

  it.each(["responses", "anthropic"] as const)("answers on the %s wire, its adapter loaded from the bundle (Anthropic's with its SDK)", async (wire) => {
    ws.server.enqueue(text("Over another wire."));
    const run = await runInstalled(["-p", "hi", "-s"], wireEnv(wire));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("Over another wire.\n");
    expect(ws.server.completionRequests.map((request) => request.wire)).toEqual([wire]);
  });

  it("judges a compound shell command with its own tree-sitter parser and runs it", async () => {
    writeFileSync(path.join(ws.cwd, "marker.txt"), "x\n");
    // A substitution: beyond the small parser for simple command lines, so the vendored tree-sitter decides it.
    ws.server.enqueue(toolCall("bash", { command: 'ls && echo "$(echo hi)"', description: "List files" }), text("Listed."));
    const run = await runInstalled(["-p", "list the files", "--allow-tool", "shell(ls)", "--allow-tool", "shell(echo)"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Listed.");
    expect(toolResult()).toContain("marker.txt");
    expect(toolResult()).toContain("hi");
  });

  it("runs the sql tool with its own sql.js", async () => {
    ws.server.enqueue(
      toolCall("sql", { description: "Add a todo", query: "INSERT INTO todos (id, title) VALUES ('t1', 'First'); SELECT id, title, status FROM todos" }),
      text("Added."),
    );
    const run = await runInstalled(["-p", "add a todo"]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResult()).toContain("| t1 | First | pending |");
  });

  it("calls a tool of a stdio MCP server (a plain node script outside the checkout)", async () => {
    const script = path.join(ws.cwd, "plain-mcp-server.mjs");
    copyFileSync(path.join(REPO_ROOT, "test/support/plain-mcp-server.mjs"), script);
    writeFileSync(
      path.join(ws.home, "mcp-config.json"),
      JSON.stringify({ mcpServers: { plain: { type: "local", command: process.execPath, args: [script] } } }),
    );
    ws.server.enqueue(toolCall("plain-echo_text", { text: "hi" }), text("Echoed."));
    const run = await runInstalled(["-p", "echo hi through plain-echo_text", "--allow-all-tools"]);
    expect(run.code, run.stderr).toBe(0);
    expect(toolResult()).toBe("plain echo: hi");
  });

  it("answers the SDK's --headless --stdio handshake and runs a session", async () => {
    const world = sdkWorld({ PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` });
    try {
      mkdirSync(world.cwd, { recursive: true });
      ws.server.enqueue(text("Hello from the installed copy."));
      const client = world.client({ path: packed.bin });
      await client.start();
      expect(await client.getStatus()).toMatchObject({ protocolVersion: 3 });
      const session = await client.createSession({ model: "scripted-model", provider: scriptedProvider(ws.server.baseUrl), onPermissionRequest: approveAll });
      expect((await session.sendAndWait({ prompt: "hi" }))?.data.content).toBe("Hello from the installed copy.");
      expect(await client.stop()).toEqual([]);
    } finally {
      world.cleanup();
    }
  });

  it("answers ACP initialize and a prompt with --acp", async () => {
    const env = ws.env();
    env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ""}`;
    const client = startAcpClient({ env, cwd: ws.cwd, bin: packed.bin });
    try {
      const response = await client.agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      expect(response.protocolVersion).toBe(1);
      expect(response.agentInfo?.name).toBe("agent");
      const { sessionId } = await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
      ws.server.enqueue(text("Hello over ACP."));
      expect((await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).stopReason).toBe("end_turn");
      expect(client.agentText(sessionId)).toBe("Hello over ACP.");
    } finally {
      await client.close();
    }
  });
});

describe("the installed TUI", () => {
  const tui = useTmuxAgent({ prefix: "packed-tui" });

  it("draws its first frame, then an answer's Markdown, and highlights code once its highlighter has loaded", { timeout: 60_000 }, async () => {
    const pane = await tui.launch(`PATH=${shellQuote(path.dirname(process.execPath))}:"$PATH" ${shellQuote(packed.bin)}`);
    tui.server.enqueue(text("Some **bold** words."));
    await sendPrompt(pane, "show me");
    const screen = await pane.waitFor((shown) => shown.includes("Some bold words.") && idle(shown), { what: "the answer" });
    expect(screen).not.toContain("**bold**");
    // emphasize loads after the first frame (code is shown plain until then): an answer after it is loaded
    // has the keyword in its own colour. Asked again until one is, so a slow machine only takes more turns.
    for (let attempt = 1; ; attempt++) {
      tui.server.enqueue(text(`\`\`\`js\nconst answer${attempt} = 42;\n\`\`\`\n`));
      await sendPrompt(pane, `code ${attempt}`);
      await pane.waitFor((shown) => shown.includes(`const answer${attempt} = 42;`) && idle(shown), { what: `code block ${attempt}` });
      const styled = await tui.tmux.tmux(["capture-pane", "-p", "-e", "-t", pane.target]);
      if (new RegExp(`\\x1b\\[3\\dmconst\\x1b\\[39m answer${attempt}`).test(styled)) break;
      if (attempt === 10) throw new Error(`no highlighted code after ${attempt} answers:\n${styled}`);
    }
  });
});
