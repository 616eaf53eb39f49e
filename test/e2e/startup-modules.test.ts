/**
 * Start-up loads only what the first request needs: a headless run whose only tool call is `view` never
 * loads the search and diff libraries (fast-glob, ignore, diff), the event catalog's schemas, or chalk (stderr
 * is not a terminal), the slash commands or execa, memory's store and tools (memory is off), and zod comes without
 * its 60-odd locales.
 * Runs the built bin/agent under the bench's module tracker and maps each loaded dist/ chunk to its sources
 * through the chunk's source map (of a script bundle such as dist/chunks/program.cjs, only the modules that ran); and that such a run keeps V8's young generation small (src/cli/main.ts). Needs dist/ (built by `npm test` before vitest runs).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { AGENT_BIN, agentEnv, collect } from "../support/run-agent.js";
import { startScriptedServer, text, toolCall, type ScriptedServer } from "../support/scripted-server.js";
import { currentWire, onWire, WIRES, type Wire } from "../support/test-wire.js";

const TRACKER = pathToFileURL(fileURLToPath(new URL("../../bench/module-tracker.mjs", import.meta.url))).href;

/**
 * The packages (and zod locales) behind the dist/ code this run loaded: each ES module chunk's sources (by its
 * source map), and of the script bundles (the vendor bundles, dist/chunks/program.cjs) the modules that ran,
 * as the tracker found them.
 */
function loadedSources(log: string): string[] {
  const lines = readFileSync(log, "utf8").split("\n");
  const chunks = lines.filter((line) => line.startsWith("esm file:") && line.includes("/dist/")).map((line) => fileURLToPath(line.slice(4)));
  const bundled = lines.filter((line) => line.startsWith("module ")).map((line) => line.slice("module ".length));
  return [
    ...bundled,
    ...[...new Set(chunks)].flatMap((chunk) => {
      const map = `${chunk}.map`;
      if (!existsSync(map)) return [];
      return (JSON.parse(readFileSync(map, "utf8")) as { sources: string[] }).sources;
    }),
  ];
}

let server: ScriptedServer;
beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

/**
 * A run that views a file, with `probe` (source writing to the given file at exit) loaded first: its report. An ES
 * module probe by default; a CommonJS one (`--require`) where the ES module loader must not be started by the probe.
 */
async function probedRun(probe: (report: string) => string, kind: "module" | "commonjs" = "module", wire: Wire = currentWire()): Promise<string> {
  const cwd = tempDir("startup-cwd-");
  const dir = tempDir("startup-log-");
  const report = path.join(dir, "report.txt");
  const probeFile = path.join(dir, kind === "module" ? "probe.mjs" : "probe.cjs");
  writeFileSync(probeFile, probe(report));
  writeFileSync(path.join(cwd, "a.txt"), "hello\n");
  server.enqueue(toolCall("view", { path: path.join(cwd, "a.txt") }), text("It says hello."));
  const preload = kind === "module" ? ["--import", pathToFileURL(probeFile).href] : ["--require", probeFile];
  const child = spawn(process.execPath, [...preload, AGENT_BIN, "-p", "what does a.txt say?"], {
    cwd,
    env: onWire(agentEnv({ home: tempDir("startup-home-"), baseUrl: server.baseUrl }), wire),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run = await collect(child);
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("It says hello.");
  return readFileSync(report, "utf8");
}

describe("start-up of a headless run", () => {
  it("does not load the search and diff libraries or zod's locales for a run that only views a file", async () => {
    const cwd = tempDir("startup-cwd-");
    const log = path.join(tempDir("startup-log-"), "modules.log");
    writeFileSync(path.join(cwd, "a.txt"), "hello\n");
    server.enqueue(toolCall("view", { path: path.join(cwd, "a.txt") }), text("It says hello."));
    const child = spawn(process.execPath, ["--import", TRACKER, AGENT_BIN, "-p", "what does a.txt say?"], {
      cwd,
      env: agentEnv({ home: tempDir("startup-home-"), baseUrl: server.baseUrl, extra: { BENCH_MODULE_LOG: log } }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const run = await collect(child);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("It says hello.");

    const sources = loadedSources(log);
    // The check can only say "not loaded" if it saw the chunks that were: openai and zod are always loaded.
    expect(sources.some((source) => source.includes("node_modules/openai/"))).toBe(true);
    expect(sources.some((source) => source.includes("node_modules/zod/"))).toBe(true);
    // And of a `-p` run's program bundle, the modules it set up on the way (headless.ts is imported lazily).
    expect(sources.some((source) => /src\/cli\/headless\.ts$/.test(source))).toBe(true);
    const heavy = sources.filter((source) => /node_modules\/(fast-glob|ignore|diff|micromatch|@vscode\/tree-sitter-wasm)\//.test(source));
    expect(heavy).toEqual([]);
    const locales = sources.filter((source) => /zod\/v4\/locales\/(?!en\.js)/.test(source));
    expect(locales).toEqual([]);
    // A new session never reads a log, so the event catalog's schemas are not built; stderr is a pipe, so no chalk.
    expect(sources.filter((source) => /src\/core\/events\/(catalog|session-events|tool-events)\.ts$/.test(source))).toEqual([]);
    expect(sources.filter((source) => /node_modules\/chalk\//.test(source))).toEqual([]);
    // What the orchestration layer added stays out of a plain run: the prompt is not a slash command, so the
    // commands (and /review's execa) are not loaded.
    expect(sources.filter((source) => /node_modules\/execa\/|src\/core\/slash-commands\//.test(source))).toEqual([]);
    // A model on Chat Completions: the other wires' adapters and the Anthropic SDK are not loaded.
    if (currentWire() === "chat")
      expect(sources.filter((source) => /node_modules\/@anthropic-ai\/|src\/provider\/(anthropic-|openai-responses|responses-events)/.test(source))).toEqual(
        [],
      );
    // The built-in agents' frontmatter was checked by the build: no YAML parser without agent files of one's own.
    expect(readFileSync(log, "utf8")).not.toMatch(/dist\/yaml\//);
    // No hook files, so no hook engine.
    expect(sources.filter((source) => /src\/core\/session-hooks\.ts$|src\/hooks\//.test(source))).toEqual([]);
    // Memory is off in -p: nothing of its store, board, secrets check or tools is loaded (only the switch itself).
    const memory = sources.filter((source) => /src\/memory\//.test(source)).map((source) => source.replace(/^.*src\/memory\//, ""));
    expect(memory.filter((file) => !["session-memory.ts", "memory-settings.ts"].includes(file))).toEqual([]);
  });
  it("keeps V8's young generation at its first semi-space, so its pages do not swell the peak RSS", async () => {
    // At exit, the young generation's committed size (V8 doubles it up to 16 MB while a run loads, by default).
    const report = await probedRun(
      (report) => `import v8 from "node:v8"; import { writeFileSync } from "node:fs";
process.on("exit", () => writeFileSync(${JSON.stringify(report)}, String(v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size)));`,
    );
    expect(Number(report)).toBeLessThanOrEqual(2 * 1024 * 1024);
  });

  // On every wire: the Anthropic SDK's bundle has openai's Headers too (scripts/build.mjs).
  it("never loads undici: the fetch over node:http makes neither a global Headers nor a Response", async () => {
    // Node 20 loads undici as one built-in module the first time a global Headers, Response or fetch is touched.
    const report = await probedRun(
      (report) => `import { writeFileSync } from "node:fs";
process.on("exit", () => writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList.filter((name) => /undici/.test(name)))));`,
    );
    expect(JSON.parse(report)).toEqual([]);
  });

  // Each of Node's modules a run loads is its code and more of the node binary's pages in the peak RSS.
  it("loads none of Node's modules a run that views a file does not use", async () => {
    const report = await probedRun(
      (report) => `const { writeFileSync } = require("node:fs");
process.on("exit", () => writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));`,
      "commonjs",
    );
    const loaded = JSON.parse(report) as string[];
    // bin/agent.js starts a -p run from a script: no ES module loader (src/cli/one-shot.ts).
    expect(loaded.filter((name) => /^NativeModule internal\/modules\/esm\/(load|module_job|translators)$/.test(name))).toEqual([]);
    // git runs only for a diff, readline only for a file over 1 MB, durations are read off process.hrtime, and ids
    // come from /dev/urandom (node:crypto sets up OpenSSL).
    expect(loaded.filter((name) => /^NativeModule (child_process|readline|perf_hooks|crypto)$/.test(name))).toEqual([]);
    // The file tools use node:fs's callbacks (src/util/promised-fs.ts): node:fs/promises brings FileHandle, fs.watch
    // and readline's interface with it.
    expect(loaded.filter((name) => /^NativeModule (internal\/)?(fs\/promises|fs\/watchers|readline\/interface)$/.test(name))).toEqual([]);
    // The answer is read from Node's stream (PlainResponse.bodyReader) and openai's client checks for a web stream
    // body without the global (scripts/build.mjs): Node's web streams stay unloaded.
    expect(loaded.filter((name) => /^NativeModule internal\/webstreams\/(readablestream|adapters)$/.test(name))).toEqual([]);
  });

  // Each wire's client reads the answer from Node's stream too: the Anthropic SDK's checks for a web stream and its
  // cleanup registration would otherwise make one (scripts/build.mjs), ~20 ms of a 2,000-token answer.
  it.each(WIRES)("reads the answer on the %s wire without Node's web streams", async (wire) => {
    const report = await probedRun(
      (report) => `const { writeFileSync } = require("node:fs");
process.on("exit", () => writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));`,
      "commonjs",
      wire,
    );
    expect((JSON.parse(report) as string[]).filter((name) => /^NativeModule internal\/webstreams\/(readablestream|adapters)$/.test(name))).toEqual([]);
  });
});
