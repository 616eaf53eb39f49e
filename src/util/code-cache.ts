/**
 * Runs a CommonJS bundle (the build's dist/vendor.cjs: zod, openai; dist/vendor-commander.cjs) through vm.Script with V8's
 * code cache, so a start-up deserialises compiled code instead of parsing half a megabyte again. Node 20
 * has no compile cache of its own (module.enableCompileCache is 22.1+, and ES modules cannot take cached
 * data at all), hence a script.
 *
 * The cache is private (a 0700 folder of ours, files 0600, replaced by rename) and only ever an
 * optimisation: its name carries the bundle's content hash, Node's version and the architecture; each file
 * starts with a checksum of what follows; V8 checks its own version and flags. Whatever is wrong with it
 * (missing, foreign, truncated, stale, rejected, an unwritable folder), the bundle is compiled from source
 * and the run goes on; a fresh cache is written when the process exits.
 */
import { isAscii } from "node:buffer";
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readSync, statSync, unlinkSync } from "node:fs";
import module, { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import { makePrivateDir, replacePrivateFile } from "./private-files.js";

import { codeCacheDir } from "./cache-dir.js";

export { codeCacheDir };

/**
 * The V8 settings this process compiles under, as part of each cache's name. V8 stamps a cache with its flags and
 * refuses one made under others: a one-shot run starts without TurboFan (one-shot-tuning.ts) and the TUI and the
 * server with it, so one file shared by both would be refused and rewritten at every switch between them.
 */
// On globalThis: main.ts notes it in its copy of this module, and the program's script (which bundles a copy of its
// own) loads the vendor bundles.
const settings = ((globalThis as Record<symbol, unknown>)[Symbol.for("agent.compilerSettings")] ??= { name: "default" }) as { name: string };

export function noteCompilerSettings(name: string): void {
  settings.name = name;
}

const requireBuiltin = createRequire(import.meta.url);

/**
 * The checksum a cache file starts with, after a magic line naming it: CRC-32 from node:zlib where Node has it (20.15
 * and later), SHA-1 from node:crypto otherwise. Not node:crypto where it can be helped: it sets up OpenSSL, ~1.1 MB
 * of a `-p` run's peak RSS (docs/benchmarks.md), zlib ~0.3. A Node version reads only the caches it wrote (the
 * version is in the name), so it always finds its own kind. The magic line is 20 bytes and each checksum a
 * multiple of 4, so the payload starts 8-aligned: V8 copies cached data that does not (a second buffer the size of
 * the cache, allocated and freed at every load).
 */
interface Checksum {
  magic: string;
  bytes: number;
  of(payload: Uint8Array): Buffer;
}

let checksumKind: Checksum | undefined;
function checksum(): Checksum {
  if (!checksumKind) {
    const { crc32 } = requireBuiltin("node:zlib") as { crc32?: (data: Uint8Array) => number };
    if (typeof crc32 === "function") {
      checksumKind = {
        magic: "agent-code-cache-3c\n",
        bytes: 4,
        of: (payload) => {
          const sum = Buffer.alloc(4);
          sum.writeUInt32BE(crc32(payload));
          return sum;
        },
      };
    } else {
      const crypto = requireBuiltin("node:crypto") as typeof import("node:crypto");
      checksumKind = { magic: "agent-code-cache-3s\n", bytes: 20, of: (payload) => crypto.createHash("sha1").update(payload).digest() };
    }
  }
  return checksumKind;
}

/** 64-bit FNV-1a of the text's UTF-16 code units, as 16 hex digits: a name, not a check. */
function nameHash(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) hash = BigInt.asUintN(64, (hash ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n);
  return hash.toString(16).padStart(16, "0");
}

/** "ours": a folder we may trust with code (ours, writable by nobody else); "missing": one we may make. */
function folderState(dir: string): "ours" | "missing" | "foreign" {
  try {
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || (stat.mode & 0o022) !== 0) return "foreign";
    return typeof process.getuid !== "function" || stat.uid === process.getuid() ? "ours" : "foreign";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "foreign";
  }
}

/** The cached data in `file` if it is whole and ours; undefined otherwise. */
export function readCodeCache(file: string, into?: (size: number) => Buffer): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = into ? readWhole(file, into) : readFileSync(file);
  } catch {
    return undefined;
  }
  const { magic, bytes: sumBytes, of } = checksum();
  const header = magic.length + sumBytes;
  if (bytes.length <= header || bytes.toString("latin1", 0, magic.length) !== magic) return undefined;
  const payload = bytes.subarray(header);
  return of(payload).equals(bytes.subarray(magic.length, header)) ? payload : undefined;
}

/** Caches of other builds (or Node versions) of the same bundle unused for this long are removed when a new one is written. */
const STALE_MS = 7 * 24 * 60 * 60 * 1000;

export function writeCodeCache(file: string, payload: Uint8Array): void {
  const dir = path.dirname(file);
  makePrivateDir(dir);
  const { magic, of } = checksum();
  replacePrivateFile(file, Buffer.concat([Buffer.from(magic, "latin1"), of(payload), payload]));
  // One file per build: without this every upgrade would leave its predecessor's half megabyte behind.
  const prefix = path.basename(file).replace(/-[0-9a-f]+\.cache$/, "-");
  for (const name of readdirSync(dir)) {
    const other = path.join(dir, name);
    if (other === file || !name.startsWith(prefix) || !name.endsWith(".cache")) continue;
    try {
      if (Date.now() - statSync(other).atimeMs > STALE_MS && Date.now() - statSync(other).mtimeMs > STALE_MS) unlinkSync(other);
    } catch {
      // gone already, or not ours to remove
    }
  }
}

export interface CachedScriptOptions {
  /** The bundle: a CommonJS file that sets module.exports. */
  file: string;
  /** Names this build of the bundle (a hash of its content). */
  buildId: string;
  /** Where the cache lives; undefined runs without one. */
  cacheDir: string | undefined;
  /**
   * When to write a missing or refused cache: at the exit of a process that succeeds, unless told otherwise (tests).
   * The cache holds what the run compiled, and stays as long as V8 takes it: one from a run that stopped early (no
   * endpoint configured, a bad flag) would leave every later start compiling the rest (~9 ms of a `-p` start).
   */
  whenDone?: (write: () => void) => void;
}

/** What the bundle is compiled as: its text inside a function, as Node wraps a CommonJS module. */
const WRAPPER = ["(function (exports, require, module, __filename, __dirname) {", "\n})"] as const;

/**
 * The bundle's text, wrapped, as one string read straight into a buffer sized for it: a wrapper added by
 * concatenation would make V8 copy the 2 MB into its heap to flatten it, which an external string read whole is
 * not. The build keeps the bundles ASCII, so the buffer is read as Latin-1, the same string as UTF-8 gives (in ~1 ms
 * instead of ~5 for program.cjs); anything else is still read as UTF-8.
 */
function readWrapped(file: string, into: (size: number) => Buffer): string {
  const [head, tail] = WRAPPER;
  const bytes = readWhole(file, into, head.length, tail.length);
  bytes.write(head, 0, "latin1");
  bytes.write(tail, bytes.length - tail.length, "latin1");
  return bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
}

/** The file's bytes in a buffer from `into`, with room for `before` bytes ahead of them and `after` behind. */
function readWhole(file: string, into: (size: number) => Buffer, before = 0, after = 0): Buffer {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const bytes = into(before + size + after);
    let read = 0;
    for (let got = -1; read < size && got !== 0; read += got) got = readSync(fd, bytes, before + read, size - read, read);
    return bytes.subarray(0, before + read + after);
  } finally {
    closeSync(fd);
  }
}

/**
 * The buffer the bundles' files and caches are read into, one after another. Each large buffer malloc frees raises
 * its threshold for mapping memory of its own, so the smaller ones read next (the vendor bundles' files and caches)
 * came from the process heap and left holes in it (~1.4 MB of a `-p` run's peak RSS, docs/benchmarks.md); a run
 * that loads several bundles in a row holds one buffer for all of them (holdReadBuffer) and frees it once.
 */
const reading = ((globalThis as Record<symbol, unknown>)[Symbol.for("agent.bundleReadBuffer")] ??= { held: false }) as {
  held: boolean;
  buffer?: Buffer | undefined;
};

function readBuffer(size: number): Buffer {
  if (!reading.held) return Buffer.allocUnsafeSlow(size);
  if (!reading.buffer || reading.buffer.length < size) reading.buffer = Buffer.allocUnsafeSlow(size);
  return reading.buffer;
}

/** Until releaseReadBuffer(), the bundles loaded are read into one buffer. */
export function holdReadBuffer(): void {
  reading.held = true;
}

export function releaseReadBuffer(): void {
  reading.held = false;
  // Handed to a short-lived copy, which the next scavenge frees: the buffer itself has lived long enough to be in
  // V8's old generation, which a short run never collects.
  if (reading.buffer) structuredClone(reading.buffer.buffer, { transfer: [reading.buffer.buffer] });
  reading.buffer = undefined;
}

/**
 * Compiles the bundle, from its cache when it has a good one, and arranges for a fresh cache where it has none.
 * Apart from running it, so that the file's and the cache's buffers are garbage before the bundle runs (and
 * collected by the first scavenge, not carried into the old generation by a run that allocates a lot).
 */
function compile(options: CachedScriptOptions): vm.Script {
  // The file's path too: V8 keeps the name of the script that made the cache, and stack traces (and coverage) would
  // show another install's path where two installs of one build share the folder.
  const key = nameHash(`${options.buildId}\0${process.version}\0${process.arch}\0${process.versions.v8}\0${options.file}\0${settings.name}`);
  const dir = options.cacheDir;
  const state = dir === undefined ? "foreign" : folderState(dir);
  const cacheFile = dir === undefined ? "" : path.join(dir, `${path.basename(options.file)}-${key}.cache`);
  // The source first: it is copied into a string, and the buffer holds the cache next.
  const source = readWrapped(options.file, readBuffer);
  const cachedData = state === "ours" ? readCodeCache(cacheFile, readBuffer) : undefined;
  const script = new vm.Script(source, {
    filename: options.file,
    cachedData,
    // The bundle may import() node built-ins; without this a dynamic import inside a vm.Script throws (Node 20 loses
    // it when the code comes from the cache: the program bundle has no import(), scripts/build.mjs).
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  } as vm.ScriptOptions);
  if (state !== "foreign" && (cachedData === undefined || script.cachedDataRejected === true)) {
    // At exit, so the cache holds the functions this run compiled too, not only the top level.
    (options.whenDone ?? ((write) => process.once("exit", (code) => code === 0 && write())))(() => {
      try {
        writeCodeCache(cacheFile, script.createCachedData());
      } catch {
        // No cache this time; the next run compiles from source again.
      }
    });
  }
  return script;
}

/** Loads the bundle (once per call) and returns its exports. */
export function loadCachedScript(options: CachedScriptOptions): unknown {
  const module = { exports: {} as unknown };
  const run = compile(options).runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  run(module.exports, createRequire(options.file), module, options.file, path.dirname(options.file));
  return module.exports;
}

/**
 * Node 22.1+ keeps the compiled code of every ES module loaded after this call (Node 20 has no such cache:
 * there only the vendor bundle is cached). In the same private folder, under the same rule: a folder others
 * may write to is not used. Node reports its own failures in the result instead of throwing.
 */
export function enableModuleCompileCache(dir = codeCacheDir()): void {
  const enable = (module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (typeof enable !== "function" || dir === undefined) return;
  try {
    if (folderState(dir) === "missing") makePrivateDir(dir);
    if (folderState(dir) === "ours") enable(path.join(dir, "modules"));
  } catch {
    // no cache: the modules compile as they always did
  }
}
