/**
 * The vendor bundle's code cache (src/util/code-cache.ts) is only ever an optimisation: a cache that is
 * missing, truncated, corrupt, written for other source or kept in a folder others can write is ignored (and
 * replaced where the folder is ours), and the script runs the same. The end-to-end side, the built agent
 * with a broken cache in its ~/.cache, is in test/e2e/code-cache.test.ts.
 */
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { codeCacheDir, holdReadBuffer, loadCachedScript, readCodeCache, releaseReadBuffer, writeCodeCache } from "../../src/util/code-cache.js";

/** A CommonJS file that exports a function and a built-in it required, as the vendor bundle does. */
function scriptFile(body = "module.exports = { add: (a, b) => a + b, sep: require('node:path').sep };"): string {
  const file = path.join(tempDir("code-cache-src-"), "vendor.cjs");
  writeFileSync(file, body);
  return file;
}

/** Loads `file` with the cache in `dir`; returns its exports and whether it asked to write the cache. */
function load(file: string, dir: string | undefined, buildId = "build-1"): { exports: { add(a: number, b: number): number }; write?: () => void } {
  let write: (() => void) | undefined;
  const exports = loadCachedScript({ file, buildId, cacheDir: dir, whenDone: (save) => (write = save) }) as { add(a: number, b: number): number };
  return { exports, write };
}

const cacheFiles = (dir: string) => readdirSync(dir).map((name) => path.join(dir, name));

describe("the code cache file", () => {
  it("reads back what was written, and nothing from a truncated, altered or foreign file", () => {
    const file = path.join(tempDir("code-cache-"), "x.cache");
    const payload = Buffer.from("some compiled code");
    writeCodeCache(file, payload);
    expect(readCodeCache(file)).toEqual(payload);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const whole = readFileSync(file);
    writeFileSync(file, whole.subarray(0, whole.length - 3));
    expect(readCodeCache(file)).toBeUndefined();
    const altered = Buffer.from(whole);
    altered[altered.length - 1] = (altered[altered.length - 1] as number) ^ 0xff;
    writeFileSync(file, altered);
    expect(readCodeCache(file)).toBeUndefined();
    writeFileSync(file, "not a cache at all");
    expect(readCodeCache(file)).toBeUndefined();
    writeFileSync(file, "");
    expect(readCodeCache(file)).toBeUndefined();
    expect(readCodeCache(path.join(path.dirname(file), "missing.cache"))).toBeUndefined();
  });

  it("starts its payload 8-aligned in the buffer it is read into, so V8 takes it without a copy", () => {
    const file = path.join(tempDir("code-cache-"), "x.cache");
    writeCodeCache(file, Buffer.from("some compiled code"));
    expect((readCodeCache(file) as Buffer).byteOffset % 8).toBe(0);
    // CRC-32 from node:zlib where Node has it, not node:crypto's OpenSSL (docs/benchmarks.md).
    const magic = readFileSync(file, "latin1").split("\n")[0];
    expect(magic).toBe(typeof (zlib as { crc32?: unknown }).crc32 === "function" ? "agent-code-cache-3c" : "agent-code-cache-3s");
  });

  it("reads a run's bundles into one held buffer, released once, and each loads as it would alone", () => {
    const dir = tempDir("code-cache-dir-");
    const files = [scriptFile(), scriptFile("module.exports = { add: (a, b) => a * b };")];
    for (const file of files) load(file, dir).write?.();
    holdReadBuffer();
    try {
      // Each from its cache (no cache to write: V8 took the one read into the shared buffer).
      const [first, second] = files.map((file) => load(file, dir));
      expect([first?.exports.add(2, 3), second?.exports.add(2, 3)]).toEqual([5, 6]);
      expect([first?.write, second?.write]).toEqual([undefined, undefined]);
    } finally {
      releaseReadBuffer();
    }
    expect(load(files[0] as string, dir).exports.add(2, 5)).toBe(7);
  });

  it("lives in $XDG_CACHE_HOME/agent, else ~/.cache/agent, and nowhere with AGENT_NO_CODE_CACHE", () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: "/var/cache/me" })).toBe(path.join("/var/cache/me", "agent"));
    expect(codeCacheDir({ XDG_CACHE_HOME: "relative" })).toMatch(/[\\/]\.cache[\\/]agent$/);
    expect(codeCacheDir({})).toMatch(/[\\/]\.cache[\\/]agent$/);
    expect(codeCacheDir({ XDG_CACHE_HOME: "/var/cache/me", AGENT_NO_CODE_CACHE: "1" })).toBeUndefined();
  });
});

describe("a script run through the cache", () => {
  it("writes the cache when there is none (in a private folder it makes), then uses it without writing again", () => {
    const file = scriptFile();
    const dir = path.join(tempDir("code-cache-home-"), "cache", "agent");
    const first = load(file, dir);
    expect(first.exports.add(2, 3)).toBe(5);
    expect(first.write).toBeTypeOf("function");
    first.write?.();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(cacheFiles(dir)).toHaveLength(1);
    const second = load(file, dir);
    expect(second.exports.add(2, 3)).toBe(5);
    expect(second.write).toBeUndefined();
  });

  it.each([
    ["truncated", (bytes: Buffer) => bytes.subarray(0, bytes.length >> 1)],
    ["with a flipped byte", (bytes: Buffer) => Buffer.from(bytes.map((byte, i) => (i === bytes.length - 5 ? byte ^ 0x55 : byte)))],
    ["garbage", () => Buffer.from("garbage")],
    ["empty", () => Buffer.alloc(0)],
  ])("runs from source and replaces a cache that is %s", (_name, spoil) => {
    const file = scriptFile();
    const dir = tempDir("code-cache-dir-");
    load(file, dir).write?.();
    const [cache] = cacheFiles(dir) as [string];
    const good = readFileSync(cache);
    writeFileSync(cache, spoil(good));
    const run = load(file, dir);
    expect(run.exports.add(4, 5)).toBe(9);
    expect(run.write).toBeTypeOf("function");
    run.write?.();
    expect(readCodeCache(cache)).toBeDefined();
  });

  it("does not take a cache made for other source under the same name: V8 refuses it and it is rewritten", () => {
    const dir = tempDir("code-cache-dir-");
    const other = scriptFile("module.exports = { add: (a, b) => a * b, sep: '' };");
    load(other, dir, "same-id").write?.();
    // Same build id, same file name, different source (what a hand-edited dist/ would be).
    const file = path.join(tempDir("code-cache-src-"), "vendor.cjs");
    writeFileSync(file, "module.exports = { add: (a, b) => a + b + 0, sep: require('node:path').sep, more: [1, 2, 3] };");
    const run = load(file, dir, "same-id");
    expect(run.exports.add(2, 3)).toBe(5);
    expect(run.write).toBeTypeOf("function");
  });

  it("neither reads nor writes a cache in a folder others may write to", () => {
    const file = scriptFile();
    const dir = tempDir("code-cache-open-");
    load(file, dir).write?.();
    chmodSync(dir, 0o777);
    const [cache] = cacheFiles(dir) as [string];
    writeFileSync(cache, "garbage");
    const run = load(file, dir);
    expect(run.exports.add(1, 1)).toBe(2);
    expect(run.write).toBeUndefined();
    expect(readFileSync(cache, "utf8")).toBe("garbage");
  });

  // ASCII is read as Latin-1 (faster), anything else as UTF-8: either way the same text, cached or not.
  it.each([
    ["ASCII, with escapes", 'module.exports = { add: (a, b) => a + b, text: "caf\\u00e9 \\u2026 \\ud83d\\ude00" };'],
    ["UTF-8", 'module.exports = { add: (a, b) => a + b, text: "café … 😀" };'],
  ])("reads a bundle in %s as its text, from source and from the cache", (_kind, body) => {
    const file = scriptFile(body);
    const dir = path.join(tempDir("code-cache-home-"), "agent");
    const fresh = load(file, dir);
    fresh.write?.();
    const cached = load(file, dir);
    expect(cached.write).toBeUndefined();
    for (const run of [fresh, cached]) expect((run.exports as unknown as { text: string }).text).toBe("café … 😀");
  });

  it("runs without a cache folder at all", () => {
    const run = load(scriptFile(), undefined);
    expect(run.exports.add(1, 2)).toBe(3);
    expect(run.write).toBeUndefined();
  });

  it("removes another build's cache unused for a week when it writes its own, and keeps a recent one", () => {
    const file = scriptFile();
    const dir = tempDir("code-cache-dir-");
    load(file, dir, "old-build").write?.();
    const [oldest] = cacheFiles(dir) as [string];
    load(file, dir, "recent-build").write?.();
    const recent = cacheFiles(dir).find((name) => name !== oldest) as string;
    const longAgo = new Date(Date.now() - 8 * 24 * 60 * 60 * 1000);
    utimesSync(oldest, longAgo, longAgo);
    const unrelated = path.join(dir, "something-else.cache");
    writeFileSync(unrelated, "");
    utimesSync(unrelated, longAgo, longAgo);
    load(file, dir, "new-build").write?.();
    expect(cacheFiles(dir)).toHaveLength(3);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
    expect(existsSync(oldest)).toBe(false);
  });

  it("keys the cache by the build: another build id is another file", () => {
    const file = scriptFile();
    const dir = tempDir("code-cache-dir-");
    load(file, dir, "build-1").write?.();
    const next = load(file, dir, "build-2");
    expect(next.write).toBeTypeOf("function");
    next.write?.();
    expect(cacheFiles(dir)).toHaveLength(2);
  });

  // V8 keeps the name of the script that made a cache: a copy elsewhere (another install of the same build) gets its
  // own, so its stack traces name its own file.
  it("keys the cache by the file's path too, and the script's stack traces name its own file", () => {
    const body = "module.exports = { add: (a, b) => a + b, where: () => new Error().stack };";
    const [first, second] = [scriptFile(body), scriptFile(body)];
    const dir = tempDir("code-cache-dir-");
    load(first, dir).write?.();
    const other = load(second, dir);
    expect(other.write).toBeTypeOf("function");
    other.write?.();
    expect(cacheFiles(dir)).toHaveLength(2);
    const again = load(second, dir);
    expect(again.write).toBeUndefined();
    const stack = (again.exports as unknown as { where(): string }).where();
    expect(stack).toContain(second);
    expect(stack).not.toContain(first);
  });
});
