/**
 * Does the headless path load ink/react? Runs the agent once under bench/module-tracker.mjs (loader hooks
 * that log every ES module URL loaded, plus require's cache at exit) and classifies the loaded files:
 * a file under dist/ counts as UI when its source map lists ink/react (or their renderer dependencies) among
 * its sources; a file elsewhere when its path is inside one of those packages. As a control, every chunk in
 * dist/ is classified the same way, so a "no" that could never have been "yes" (no ink/react anywhere in
 * dist/) is reported as such.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runOnce, stdoutHas, validate, type BenchCommand, type BenchRunOptions } from "./measure.js";
import { FINAL_TEXT, TOOL_PROMPT } from "./scenario.js";

const UI_PACKAGES = /node_modules\/(ink|react|react-reconciler|yoga-layout|scheduler)\//;
/** Fallback when a dist file has no source map: React's element symbols (React 18 and 19). */
const REACT_MARKERS = ['Symbol.for("react.element")', 'Symbol.for("react.transitional.element")'];
const TRACKER = pathToFileURL(fileURLToPath(new URL("./module-tracker.mjs", import.meta.url))).href;

export interface ModuleReport {
  /** "no" / "yes"; "unknown" when the tracker saw no dist/ file at all (the check did not work). */
  uiLoaded: "yes" | "no" | "unknown";
  /** False when no file in dist/ contains ink/react at all, so "no" could not have been "yes" (yet). */
  detectable: boolean;
  /** dist/ files the headless run loaded (relative to dist/), with size in KB. */
  distLoaded: { file: string; kb: number; ui: string[] }[];
  /** dist/ files not loaded by the run that contain UI packages (the control). */
  uiChunksNotLoaded: string[];
  /** UI files loaded from outside dist/ (e.g. node_modules directly). */
  uiOutsideDist: string[];
  esmCount: number;
  cjsCount: number;
}

/** UI packages a dist file is built from (by its source map, else by content markers). */
function uiPackagesOf(file: string): string[] {
  const map = `${file}.map`;
  if (existsSync(map)) {
    const parsed = JSON.parse(readFileSync(map, "utf8")) as { sources?: unknown };
    const sources = Array.isArray(parsed.sources) ? parsed.sources.filter((s): s is string => typeof s === "string") : [];
    const found = new Set<string>();
    for (const source of sources) {
      const match = UI_PACKAGES.exec(source.replaceAll("\\", "/"));
      if (match?.[1]) found.add(match[1]);
    }
    return [...found].sort();
  }
  const content = readFileSync(file, "utf8");
  return REACT_MARKERS.some((marker) => content.includes(marker)) ? ["react (by content)"] : [];
}

function listJs(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listJs(full));
    else if (entry.name.endsWith(".js")) out.push(full);
  }
  return out;
}

function toPath(entry: string): string | undefined {
  const [kind, ...rest] = entry.split(" ");
  const target = rest.join(" ");
  if (kind === "esm") return target.startsWith("file:") ? fileURLToPath(target) : undefined;
  if (kind === "cjs") return path.isAbsolute(target) ? target : undefined;
  return undefined;
}

export async function checkHeadlessModules(command: BenchCommand, distDir: string): Promise<ModuleReport> {
  const log = path.join(os.tmpdir(), `agent-bench-${process.pid}-modules.txt`);
  rmSync(log, { force: true });
  try {
    const result = await runOnce(command, { extraArgs: ["--import", TRACKER], extraEnv: { BENCH_MODULE_LOG: log } });
    validate(command, result);
    const lines = existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter((l) => l !== "")
      : [];
    const files = new Set(lines.map(toPath).filter((p): p is string => p !== undefined));
    const distRoot = path.resolve(distDir) + path.sep;
    const distLoaded: ModuleReport["distLoaded"] = [];
    const uiOutsideDist: string[] = [];
    for (const file of files) {
      if (file.startsWith(distRoot)) {
        distLoaded.push({ file: path.relative(distRoot, file), kb: statSync(file).size / 1024, ui: uiPackagesOf(file) });
      } else if (UI_PACKAGES.test(file.replaceAll("\\", "/"))) {
        uiOutsideDist.push(file);
      }
    }
    distLoaded.sort((a, b) => a.file.localeCompare(b.file));
    const loaded = new Set(distLoaded.map((d) => d.file));
    const uiChunksNotLoaded = listJs(distDir)
      .map((file) => path.relative(distRoot, file))
      .filter((rel) => !loaded.has(rel) && uiPackagesOf(path.join(distRoot, rel)).length > 0);
    const anyUi = distLoaded.some((d) => d.ui.length > 0) || uiOutsideDist.length > 0;
    const detectable = uiChunksNotLoaded.length > 0 || anyUi;
    const uiLoaded = anyUi ? "yes" : distLoaded.length === 0 ? "unknown" : "no";
    return {
      uiLoaded,
      detectable,
      distLoaded,
      uiChunksNotLoaded,
      uiOutsideDist,
      esmCount: lines.filter((l) => l.startsWith("esm ")).length,
      cjsCount: lines.filter((l) => l.startsWith("cjs ")).length,
    };
  } finally {
    rmSync(log, { force: true });
  }
}

/** What a bench of one tracked `-p` run is given by bench/run.ts. */
export type TrackedRunOptions = Pick<BenchRunOptions, "agent" | "cwd" | "freshHome" | "env" | "providerEnv">;

/**
 * Runs `agent -p` with the scenario's tool prompt once under the module tracker (a fresh AGENT_HOME, the answer
 * checked) and returns the tracker's log lines: `esm <url>` and `cjs <path>`.
 */
export async function trackedHeadlessRun(options: TrackedRunOptions, label: string, extraArgs: readonly string[] = []): Promise<string[]> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-tracked-"));
  const log = path.join(scratch, "modules.log");
  try {
    const command: BenchCommand = {
      label,
      args: [options.agent, "-p", TOOL_PROMPT, ...extraArgs],
      cwd: options.cwd,
      env: () => options.env({ ...options.providerEnv, AGENT_HOME: options.freshHome() }),
      check: stdoutHas(FINAL_TEXT),
    };
    const result = await runOnce(command, { extraArgs: ["--import", TRACKER], extraEnv: { BENCH_MODULE_LOG: log } });
    validate(command, result);
    return readFileSync(log, "utf8").split("\n");
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The sources (by their source maps) of the dist/ chunks a tracker log lists as loaded, and the script bundles' modules that ran. */
export function distSources(lines: readonly string[]): string[] {
  const bundled = lines.filter((line) => line.startsWith("module ")).map((line) => line.slice("module ".length));
  return lines
    .filter((line) => line.startsWith("esm file:") && line.includes("/dist/"))
    .flatMap((line) => {
      try {
        return (JSON.parse(readFileSync(`${fileURLToPath(line.slice(4))}.map`, "utf8")) as { sources: string[] }).sources;
      } catch {
        return [];
      }
    })
    .concat(bundled);
}
