/**
 * The built agent keeps V8's compiled code of its vendor bundle in $XDG_CACHE_HOME/agent (src/util/code-cache.ts):
 * made private at the first run, used as it is by the next, and never able to break a run: a corrupt cache
 * is replaced, one in a folder others may write to is left alone and unused, and an unusable cache home only
 * means no cache. Every run answers the same. Needs dist/ (built by `npm test` before vitest runs).
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { AGENT_BIN, runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { currentWire, wireEnv } from "../support/test-wire.js";
import { readCodeCache } from "../../src/util/code-cache.js";

const ws = useE2eWorkspace({ prefix: "code-cache" });

/** One `-p` run that views a file and answers (on the test's wire unless told); the answer must be the same whatever the cache holds. */
async function viewRun(wire: Record<string, string> = {}): Promise<void> {
  writeFileSync(path.join(ws.cwd, "a.txt"), "hello\n");
  ws.server.enqueue(toolCall("view", { path: path.join(ws.cwd, "a.txt") }), text("It says hello."));
  const run = await runAgent(["-p", "what does a.txt say?", "--allow-all-tools"], {
    cwd: ws.cwd,
    env: ws.env({ XDG_CACHE_HOME: path.join(ws.home, ".cache"), ...wire }),
  });
  expect(run.stderr).not.toMatch(/vendor\.cjs|\.cache|ENOTDIR|EACCES|\bat .*:\d+:\d+/);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("It says hello.");
}

/** The SDK's server, past its handshake to a method that needs its engine (session.list), then closed: it exits 0. */
async function serverRun(): Promise<void> {
  const server = spawn(process.execPath, [AGENT_BIN, "--headless", "--stdio"], {
    env: ws.env({ XDG_CACHE_HOME: path.join(ws.home, ".cache") }),
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
  const request = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session.list", params: {} });
  let output = "";
  const answered = new Promise<void>((resolve) =>
    server.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('"id":1')) resolve();
    }),
  );
  server.stdin.write(`Content-Length: ${Buffer.byteLength(request)}\r\n\r\n${request}`);
  await answered;
  expect(output).toContain('"result"');
  server.stdin.end();
  expect(await exited).toBe(0);
}

const cacheDir = () => path.join(ws.home, ".cache", "agent");
const cacheFiles = () => readdirSync(cacheDir()).filter((name) => name.endsWith(".cache"));

describe("the vendor bundle's code cache", () => {
  it("is written privately by the first run and used unchanged by the next", async () => {
    await viewRun();
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    // One cache per bundle: commander's (loaded first, for the command line), the `-p` run's program, zod and
    // openai's, and on the Anthropic wire the Anthropic SDK's.
    const names = cacheFiles().sort();
    const bundles = ["program", ...(currentWire() === "anthropic" ? ["vendor-anthropic"] : []), "vendor-commander", "vendor"];
    expect(names).toHaveLength(bundles.length);
    bundles.forEach((bundle, index) => expect(names[index]).toMatch(new RegExp(`^${bundle}\\.cjs-[0-9a-f]{16}\\.cache$`)));
    const files = names.map((name) => path.join(cacheDir(), name));
    const before = files.map((file) => {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readCodeCache(file)).toBeDefined();
      return { bytes: readFileSync(file), mtimeMs: statSync(file).mtimeMs };
    });
    await viewRun();
    files.forEach((file, index) => {
      expect(readFileSync(file).equals(before[index]?.bytes as Buffer)).toBe(true);
      expect(statSync(file).mtimeMs).toBe(before[index]?.mtimeMs);
    });
    expect(cacheFiles().sort()).toEqual(names);
  });

  it("keeps the Anthropic SDK in a cache of its own, made by the first run on that wire and used unchanged by the next", async () => {
    await viewRun();
    const anthropic = () => cacheFiles().filter((name) => name.startsWith("vendor-anthropic.cjs-"));
    if (currentWire() !== "anthropic") expect(anthropic()).toEqual([]);
    await viewRun(wireEnv("anthropic"));
    expect(anthropic()).toHaveLength(1);
    const file = path.join(cacheDir(), anthropic()[0] as string);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readCodeCache(file)).toBeDefined();
    const before = { bytes: readFileSync(file), mtimeMs: statSync(file).mtimeMs };
    await viewRun(wireEnv("anthropic"));
    expect(readFileSync(file).equals(before.bytes)).toBe(true);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
  });

  // V8 refuses a cache made under other flags, and a one-shot run starts without TurboFan where the SDK's server (and
  // the TUI) start with it: sharing one file, each would refuse and rewrite the other's at every switch.
  it("keeps one-shot runs' caches apart from the server's, so switching between them rewrites neither", async () => {
    await viewRun();
    const oneShot = cacheFiles().sort();
    const before = oneShot.map((name) => readFileSync(path.join(cacheDir(), name)));
    await serverRun();
    const serverFiles = cacheFiles().filter((name) => !oneShot.includes(name));
    // The server's front, its own script, loads vscode-jsonrpc's bundle; its engine, the server's script of the program
    // (the `-p` one and the engine), zod and openai's bundle and commander's: each under the server's own name (it
    // starts without TurboFan, as a one-shot run does, but not with its young generation).
    expect(serverFiles.map((name) => name.replace(/-[0-9a-f]{16}\.cache$/, "")).sort()).toEqual([
      "server-front.cjs",
      "server-program.cjs",
      "vendor-commander.cjs",
      "vendor-jsonrpc.cjs",
      "vendor.cjs",
    ]);
    await viewRun();
    oneShot.forEach((name, index) => expect(readFileSync(path.join(cacheDir(), name)).equals(before[index] as Buffer)).toBe(true));
    expect(cacheFiles().sort()).toEqual([...oneShot, ...serverFiles].sort());
  });

  it("is written by the server at its first clean exit and used unchanged by the next server", async () => {
    await serverRun();
    const files = cacheFiles().sort();
    expect(files.some((name) => name.startsWith("server-program.cjs-"))).toBe(true);
    expect(files.some((name) => name.startsWith("server-front.cjs-"))).toBe(true);
    const before = files.map((name) => readFileSync(path.join(cacheDir(), name)));
    await serverRun();
    expect(cacheFiles().sort()).toEqual(files);
    files.forEach((name, index) => expect(readFileSync(path.join(cacheDir(), name)).equals(before[index] as Buffer)).toBe(true));
  });

  // The cache holds what the run that wrote it compiled, and is kept: a run that stopped at its configuration
  // would leave every later start compiling the rest.
  it("is not written by a run that fails, and is by the next that succeeds", async () => {
    const failed = await runAgent(["-p", "hello"], {
      cwd: ws.cwd,
      env: { ...ws.env({ XDG_CACHE_HOME: path.join(ws.home, ".cache") }), AGENT_MODEL: "" },
    });
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/No model( endpoint)? is configured/);
    expect(existsSync(cacheDir()) ? cacheFiles() : []).toEqual([]);
    await viewRun();
    expect(cacheFiles().filter((name) => name.startsWith("program.cjs-"))).toHaveLength(1);
  });

  it("is replaced when corrupt, and the run answers as ever", async () => {
    await viewRun();
    // The program's (the largest, holding the most code) and a vendor bundle's.
    for (const name of cacheFiles().filter((file) => /^(program|vendor)\.cjs-/.test(file))) {
      const file = path.join(cacheDir(), name);
      const whole = readFileSync(file);
      for (const broken of [whole.subarray(0, whole.length >> 1), Buffer.from("garbage"), Buffer.alloc(0)]) {
        writeFileSync(file, broken);
        await viewRun();
        expect(readCodeCache(file)).toBeDefined();
      }
    }
  });

  it("is neither used nor written in a folder others may write to", async () => {
    await viewRun();
    chmodSync(cacheDir(), 0o777);
    const file = path.join(cacheDir(), cacheFiles()[0] as string);
    writeFileSync(file, "garbage");
    await viewRun();
    expect(readFileSync(file, "utf8")).toBe("garbage");
  });

  it("is skipped when the cache home cannot hold it", async () => {
    writeFileSync(path.join(ws.home, ".cache"), "a file where the folder would be");
    await viewRun();
    await viewRun();
  });
});
