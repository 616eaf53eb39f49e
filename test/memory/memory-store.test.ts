/**
 * The memory store: keying a repository (remote normalised, else its real git root, else the directory),
 * atomic and private writes, concurrent writers in one process and across processes, and lines a person
 * broke kept rather than lost.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keyFor, normaliseRemoteUrl, repositoryKey } from "../../src/memory/memory-location.js";
import { MemorySpace } from "../../src/memory/memory-space.js";
import { MemoryStore } from "../../src/memory/memory-store.js";
import { tempDir } from "../support/engine-harness.js";
import { git } from "../support/git-repo.js";

let home = "";
let work = "";
beforeEach(() => {
  home = tempDir("memory-home-");
  work = tempDir("memory-work-");
});
afterEach(() => {
  for (const dir of [home, work]) rmSync(dir, { recursive: true, force: true });
});

const fact = (n: number) => ({ subject: `fact ${n}`, fact: `Fact number ${n} holds.`, citations: [`src/f${n}.ts:${n}`], scope: "repository" as const });

function repoWithRemote(name: string, url?: string): string {
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  if (url) git(dir, "remote", "add", "origin", url);
  return dir;
}

describe("a repository's key", () => {
  it.each([
    ["git@github.com:Acme/Widgets.git", "github.com/acme/widgets"],
    ["https://github.com/acme/widgets", "github.com/acme/widgets"],
    ["https://github.com/acme/widgets.git/", "github.com/acme/widgets"],
    ["ssh://git@github.com/Acme/Widgets.git", "github.com/acme/widgets"],
    ["ssh://git@github.com:2222/acme/widgets.git", "github.com/acme/widgets"],
    ["https://x-access-token:ghp_secret123@github.com/acme/widgets.git", "github.com/acme/widgets"],
    ["https://gitlab.example.com:8443/group/sub/project.git", "gitlab.example.com:8443/group/sub/project"],
  ])("normalises %s to %s (never keeping credentials)", (url, key) => {
    expect(normaliseRemoteUrl(url)).toBe(key);
  });

  it.each(["/srv/git/repo.git", "../other", "file:///srv/git/repo.git", ""])("does not take %j as a remote key", (url) => {
    expect(normaliseRemoteUrl(url)).toBeUndefined();
  });

  it("is the same for two clones of one remote, in any spelling, and for a subdirectory", () => {
    const a = repoWithRemote("a", "git@github.com:Acme/Widgets.git");
    const b = repoWithRemote("b", "https://github.com/acme/widgets");
    mkdirSync(path.join(a, "src", "deep"), { recursive: true });
    expect(repositoryKey(a)).toEqual(repositoryKey(b));
    expect(repositoryKey(path.join(a, "src", "deep"))).toEqual(repositoryKey(a));
    expect(repositoryKey(a)).toMatchObject({ kind: "remote", identity: "github.com/acme/widgets" });
    expect(repositoryKey(a).fileName).toMatch(/^github-com-acme-widgets-[0-9a-f]{12}\.jsonl$/);
  });

  it("differs between repositories, and falls back to the real git root, then to the directory", () => {
    const one = repoWithRemote("one", "git@github.com:acme/one.git");
    const two = repoWithRemote("two", "git@github.com:acme/two.git");
    expect(repositoryKey(one).fileName).not.toBe(repositoryKey(two).fileName);
    const local = repoWithRemote("local");
    const link = path.join(work, "link-to-local");
    symlinkSync(local, link);
    expect(repositoryKey(link)).toEqual(repositoryKey(local));
    expect(repositoryKey(local)).toMatchObject({ kind: "git-root", identity: local });
    const plain = path.join(work, "plain");
    mkdirSync(plain);
    expect(repositoryKey(plain)).toMatchObject({ kind: "directory", identity: plain });
    // A path that looks like a remote is keyed apart from the remote.
    expect(keyFor("github.com/acme/one", "directory").fileName).not.toBe(keyFor("github.com/acme/one", "remote").fileName);
  });
});

describe("the store file", () => {
  it("is written whole, private (0600 in a 0700 folder), and readable by a person", async () => {
    const space = new MemorySpace(home, repoWithRemote("r", "git@github.com:acme/r.git"));
    const stored = await space.store(fact(1));
    expect(stored.kind).toBe("stored");
    const file = space.repository.file;
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(home, "memory")).mode & 0o777).toBe(0o700);
    const line = JSON.parse(readFileSync(file, "utf8").trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ subject: "fact 1", fact: "Fact number 1 holds.", citations: ["src/f1.ts:1"], scope: "repository", score: 1 });
    expect(line.id).toMatch(/^m-[0-9a-f]{8}$/);
    // No temporary or lock file is left beside it.
    expect(readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
  });

  it("confirms a fact stored again instead of copying it", async () => {
    const space = new MemorySpace(home, work);
    const first = await space.store(fact(1));
    const again = await space.store({ ...fact(1), fact: "  fact NUMBER 1   holds. ", citations: ["README.md:3"] });
    expect(again.kind).toBe("confirmed");
    expect(again.record.id).toBe(first.record.id);
    expect(space.read().records).toHaveLength(1);
    expect(space.read().records[0]).toMatchObject({ score: 2, citations: ["src/f1.ts:1", "README.md:3"] });
  });

  it("keeps a line a person broke, reports it, and still writes the others", async () => {
    const store = new MemoryStore(path.join(home, "memory", "user.jsonl"));
    mkdirSync(path.dirname(store.file), { recursive: true });
    writeFileSync(store.file, '{"id":"m-00000001","subject":"a","fact":"A."}\nthis is not json\n{"id":"m-00000002","fact":"no subject"}\n');
    expect(store.read().problems).toEqual([
      { line: 2, problem: "not valid JSON" },
      { line: 3, problem: '"subject" must be a non-empty string' },
    ]);
    await store.change((records) => ({ records: [...records, { ...records[0]!, id: "m-00000003", fact: "C." }], result: undefined }));
    const lines = readFileSync(store.file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe("this is not json");
    expect(lines[2]).toBe('{"id":"m-00000002","fact":"no subject"}');
    expect(JSON.parse(lines[3] as string)).toMatchObject({ id: "m-00000003", fact: "C." });
  });

  it("loses no memory when many writers store at once in one process (two spaces on one file)", async () => {
    const a = new MemorySpace(home, work);
    const b = new MemorySpace(home, work);
    await Promise.all(Array.from({ length: 40 }, (_, n) => (n % 2 === 0 ? a : b).store(fact(n))));
    const ids = a.read().records.map((record) => record.subject);
    expect(new Set(ids).size).toBe(40);
    expect(a.read().problems).toEqual([]);
  });

  it("loses no memory when two processes store at once", async () => {
    const script = fileURLToPath(new URL("./support/store-writer.ts", import.meta.url));
    const writers = ["left", "right"].map((prefix) =>
      spawn(process.execPath, ["--import", "tsx", script, home, work, prefix, "150"], { stdio: ["pipe", "pipe", "inherit"] }),
    );
    // Both load first; then both are told to go at once, so their writes interleave.
    await Promise.all(writers.map((child) => once(child.stdout as NodeJS.ReadableStream, "data")));
    const closed = writers.map((child) => once(child, "close").then(([code]) => code as number | null));
    for (const child of writers) child.stdin?.end("go\n");
    expect(await Promise.all(closed)).toEqual([0, 0]);
    const subjects = new MemorySpace(home, work).read().records.map((record) => record.subject);
    expect(subjects).toHaveLength(300);
    expect(new Set(subjects).size).toBe(300);
  }, 60_000);

  it("takes over a lock its holder left behind when it died", async () => {
    const space = new MemorySpace(home, work);
    await space.store(fact(1));
    // A lock naming a pid that is no process: a crash left it.
    writeFileSync(`${space.repository.file}.lock`, "999999999\n");
    await space.store(fact(2));
    expect(space.read().records).toHaveLength(2);
  });
});

describe("votes and forgetting", () => {
  it("a useful vote confirms; not-useful votes mark down and retire at 0; forget removes from either store", async () => {
    const space = new MemorySpace(home, work);
    const { record } = await space.store(fact(1));
    const user = await space.store({ ...fact(2), scope: "user" });
    expect((await space.vote(record.id, true))?.record.score).toBe(2);
    expect(await space.vote(record.id, false)).toMatchObject({ retired: false });
    expect(await space.vote(record.id, false)).toMatchObject({ retired: true });
    expect(space.find(record.id)).toBeUndefined();
    expect(await space.vote("m-nothere", true)).toBeUndefined();
    expect((await space.forget([user.record.id, "m-nothere"])).map((gone) => gone.id)).toEqual([user.record.id]);
    expect(space.read().records).toEqual([]);
  });
});
