/**
 * Where the time before the first request goes: runs the two-turn `-p` exchange of the bench under
 * `node --cpu-prof` (BENCH_PROFILE_RUNS times, default 5) and, for the run with the median time to the first
 * request, prints CPU samples up to that request grouped by what they were doing. Dist chunks are named by
 * the packages (or src/) their source maps list, so the figures survive rebuilds.
 *
 *   npm run build && npx tsx bench/profile-startup.ts [path/to/bin/agent.js]
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createWorkspace, startBenchServer, TOOL_PROMPT } from "./scenario.js";

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The agent to profile: this checkout's, or another build's bin/agent.js given as the argument. */
const AGENT = process.argv[2] ?? fileURLToPath(new URL("../bin/agent.js", import.meta.url));
const RUNS = Math.max(1, Number(process.env.BENCH_PROFILE_RUNS ?? 5) || 5);

/** "zod", "openai", "src", … for a dist chunk, from its source map. */
const chunkNames = new Map<string, string>();
function chunkName(url: string): string {
  let name = chunkNames.get(url);
  if (name !== undefined) return name;
  const file = url.startsWith("file:") ? fileURLToPath(url) : url;
  name = path.basename(file);
  if (existsSync(`${file}.map`)) {
    const sources = (JSON.parse(readFileSync(`${file}.map`, "utf8")) as { sources: string[] }).sources;
    const counts = new Map<string, number>();
    for (const source of sources) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
      const key = match?.[1] ?? "src";
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const top = [...counts].sort((a, b) => b[1] - a[1])[0];
    if (top) name = top[0];
  }
  chunkNames.set(url, name);
  return name;
}

function categorise(stack: CallFrame[]): string {
  const top = stack[0] as CallFrame;
  if (/compileSourceTextModule|ModuleWrap/.test(top.functionName)) return "compiling ES modules (the bundle's chunks)";
  // dist/vendor.cjs (zod, openai), dist/vendor-commander.cjs and a -p run's dist/chunks/program.cjs run as vm.Scripts with a
  // code cache: compiling or deserialising them.
  if (top.functionName === "Script" && top.url === "node:vm") return "compiling the script bundles (code cache)";
  if (top.functionName === "(garbage collector)") return "garbage collection";
  if (stack.some((frame) => frame.url.includes("deps/undici"))) return "loading undici (openai's use of Headers)";
  if (stack.some((frame) => /toJSONSchema|processSchema/.test(frame.functionName))) return "tool schemas → JSON Schema (zod)";
  const dist = stack.find((frame) => frame.url.includes("/dist/"));
  if (dist?.url.endsWith("/vendor.cjs")) return "running the vendor bundle (zod, openai)";
  if (dist?.url.endsWith("/vendor-commander.cjs")) return "running the commander bundle";
  if (dist?.url.endsWith("/program.cjs")) return "running src (the program bundle)";
  if (dist) return `running ${chunkName(dist.url)}`;
  if (/^node:internal\/modules/.test(top.url) || /compileForInternalLoader/.test(top.functionName)) return "node: module loading";
  return "node: bootstrap and other native work";
}

function analyse(file: string): { firstRequestMs: number; groups: Map<string, number> } {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stackOf = (id: number): CallFrame[] => {
    const frames: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push((byId.get(at) as ProfileNode).callFrame);
    return frames;
  };
  const groups = new Map<string, number>();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    const stack = stackOf(profile.samples[i] as number);
    // The request leaves from the agent's node:http fetch.
    if (stack.some((frame) => frame.functionName === "nodeFetch")) return { firstRequestMs: (time - profile.startTime) / 1000, groups };
    const group = categorise(stack);
    groups.set(group, (groups.get(group) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  return { firstRequestMs: Number.NaN, groups };
}

async function main(): Promise<void> {
  const ws = createWorkspace();
  const server = await startBenchServer(ws.file);
  const dir = mkdtempSync(path.join(os.tmpdir(), "agent-profile-"));
  try {
    for (let run = 0; run < RUNS; run++) {
      // Asynchronous: the scripted server runs in this process and must keep answering.
      const child = spawn(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", "200", AGENT, "-p", TOOL_PROMPT], {
        cwd: ws.cwd,
        env: {
          PATH: process.env.PATH,
          HOME: ws.root,
          AGENT_HOME: ws.freshHome(),
          OPENAI_BASE_URL: server.baseUrl,
          OPENAI_API_KEY: "test",
          AGENT_MODEL: "bench-model",
        },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      if (code !== 0) throw new Error(`agent exited ${code}: ${stderr}`);
    }
    const analyses = readdirSync(dir)
      .filter((name) => name.endsWith(".cpuprofile"))
      .map((name) => analyse(path.join(dir, name)))
      .sort((a, b) => a.firstRequestMs - b.firstRequestMs);
    const median = analyses[Math.floor(analyses.length / 2)];
    if (!median) throw new Error("no profile was written");
    console.log(`first request after (profiled, ${RUNS} runs): ${analyses.map((a) => a.firstRequestMs.toFixed(0)).join(", ")} ms; the median run:`);
    for (const [group, ms] of [...median.groups].sort((a, b) => b[1] - a[1])) console.log(`  ${ms.toFixed(1).padStart(6)} ms  ${group}`);
  } finally {
    await server.close();
    ws.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`profile-startup: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
