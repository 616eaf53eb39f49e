// Module tracker for the bench: `node --import <this file> bin/agent.js …` with BENCH_MODULE_LOG=<file>.
// Registers loader hooks (module-tracker-hooks.mjs) that append the URL of every ES module loaded to the
// log file, and at exit appends every CommonJS module in require's cache (and each file run as a vm.Script).
// A script bundle (dist/vendor.cjs, dist/chunks/program.cjs …) holds many modules, of which a run sets up only
// those it reaches: for each, the sources (by its source map) whose module code ran are logged too, found by
// V8's coverage of the functions esbuild wraps lazily set-up modules in (`__esm({"src/x.ts"() {…}})`,
// `__commonJS({…})`, named by the module's path); a module outside any wrapper runs with the bundle.
// Lines: "esm <url>" / "cjs <path>" / "module <absolute path of a bundled source that ran>".
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import inspector from "node:inspector";
import { createRequire, register } from "node:module";
import path from "node:path";
import vm from "node:vm";

const log = process.env.BENCH_MODULE_LOG;
if (log) {
  register("./module-tracker-hooks.mjs", import.meta.url, { data: { log } });
  // The build's vendor bundles (dist/vendor*.cjs) are run through vm.Script with a code cache, not loaded as
  // modules: log each script compiled from a file as a CommonJS module, so it is counted like one.
  const Script = vm.Script;
  const scripts = [];
  vm.Script = function TrackedScript(code, options) {
    const filename = typeof options === "string" ? options : options?.filename;
    if (typeof filename === "string" && filename.startsWith("/")) {
      appendFileSync(log, `cjs ${filename}\n`);
      scripts.push(filename);
    }
    return new Script(code, options);
  };
  const coverage = new inspector.Session();
  coverage.connect();
  coverage.post("Profiler.enable");
  coverage.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  const require = createRequire(import.meta.url);
  process.on("exit", () => {
    const lines = Object.keys(require.cache).map((file) => `cjs ${file}\n`);
    // An in-process session answers synchronously.
    coverage.post("Profiler.takePreciseCoverage", (error, result) => {
      if (!error) for (const file of scripts) lines.push(...bundledModulesRun(file, result.result).map((source) => `module ${source}\n`));
    });
    try {
      appendFileSync(log, lines.join(""));
    } catch {
      // measurement only
    }
  });
}

/**
 * Where the module wrappers of a bundle whose local names are shortened start (program.cjs, scripts/build.mjs):
 * esbuild's helpers are then one- or two-letter names called with an arrow function (`m(()=>{…})`), and the
 * wrappers carry no module path; each is told from the others by the source map, as the named ones are.
 */
function shortWrapperStarts(text) {
  const helpers = [...text.matchAll(/[;,\s]([\w$]{1,3})=\([\w$]+,[\w$]+\)=>\(\)=>\(/g)].map((match) => match[1]);
  const starts = new Set();
  for (const helper of helpers) {
    const call = new RegExp(`(?<![\\w$.])${helper.replaceAll("$", "\\$")}\\(\\(\\)=>`, "g");
    for (const match of text.matchAll(call)) starts.add(match.index + helper.length + 1);
  }
  return starts;
}

/**
 * The sources of the bundle `file` whose module code ran: those with generated code outside every module wrapper
 * (it runs with the bundle) or inside a wrapper V8 saw called. By the source map's mappings, not by the wrappers'
 * names, since a package's own source maps make the map's sources its original files.
 */
function bundledModulesRun(file, coverage) {
  if (!existsSync(`${file}.map`)) return [];
  const map = JSON.parse(readFileSync(`${file}.map`, "utf8"));
  const text = readFileSync(file, "utf8");
  const wrappedNames = new Set([...text.matchAll(/__(?:esm|commonJS)\(\{"([^"]+)"\(/g)].map((match) => match[1]));
  const unnamedStarts = shortWrapperStarts(text);
  // Coverage offsets count from the start of the script as compiled: src/util/code-cache.ts's wrapper, then the file.
  const prefix = "(function (exports, require, module, __filename, __dirname) {".length;
  const wrappers = [];
  for (const script of coverage) {
    if (script.url !== file && script.url !== `file://${file}`) continue;
    for (const fn of script.functions) {
      const [range] = fn.ranges;
      if (wrappedNames.has(fn.functionName) || unnamedStarts.has(range.startOffset - prefix))
        wrappers.push({ name: fn.functionName, start: range.startOffset - prefix, end: range.endOffset - prefix, ran: range.count > 0 });
    }
  }
  wrappers.sort((a, b) => a.start - b.start);
  const lineStarts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lineStarts.push(at + 1);
  // esbuild hoists a wrapped module's declarations out of its wrapper: a source is decided by the wrapper its
  // statements are in, or the one named after it; a source in no wrapper is part of the bundle's own code.
  const wrapped = new Set();
  const ran = new Set();
  let wrapper = 0;
  forEachMapping(map.mappings, (line, column, source) => {
    const offset = (lineStarts[line] ?? 0) + column;
    while (wrapper < wrappers.length && wrappers[wrapper].end <= offset) wrapper++;
    if (wrappers[wrapper] === undefined || wrappers[wrapper].start > offset) return;
    wrapped.add(source);
    if (wrappers[wrapper].ran) ran.add(source);
  });
  // A package's own source maps name its original files, not the ones esbuild wrapped: decided by the package.
  const packageOf = (name) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(name)?.[1];
  const packages = new Map();
  for (const entry of wrappers) {
    const name = packageOf(entry.name);
    if (name !== undefined) packages.set(name, packages.get(name) === true || entry.ran);
  }
  const named = new Map(wrappers.map((entry) => [entry.name, entry.ran]));
  return map.sources
    .map((source, index) => ({ index, file: path.resolve(path.dirname(file), map.sourceRoot ?? "", source) }))
    .filter(({ index, file }) => {
      const name = [...named.keys()].find((key) => file.endsWith(`/${key}`));
      if (name !== undefined) return named.get(name) === true || ran.has(index);
      if (wrapped.has(index)) return ran.has(index);
      const inPackage = packageOf(file);
      return inPackage === undefined || !packages.has(inPackage) || packages.get(inPackage) === true;
    })
    .map(({ file }) => file);
}

/** Calls `visit(generatedLine, generatedColumn, sourceIndex)` for each segment of a source map's mappings, in order. */
function forEachMapping(mappings, visit) {
  const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let line = 0;
  let column = 0;
  let source = 0;
  let at = 0;
  const vlq = () => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const digit = digits.indexOf(mappings[at++]);
      value += (digit & 31) << shift;
      shift += 5;
      if ((digit & 32) === 0) break;
    }
    return value & 1 ? -(value >>> 1) : value >>> 1;
  };
  while (at < mappings.length) {
    const char = mappings[at];
    if (char === ";") {
      line++;
      column = 0;
      at++;
      continue;
    }
    if (char === ",") {
      at++;
      continue;
    }
    column += vlq();
    const more = at < mappings.length && mappings[at] !== "," && mappings[at] !== ";";
    if (more) {
      source += vlq();
      vlq(); // original line
      vlq(); // original column
      if (at < mappings.length && mappings[at] !== "," && mappings[at] !== ";") vlq(); // name
      visit(line, column, source);
    }
  }
}
