/** How the grep tool runs its rg process (through execa): output limit, cancellation, a binary that cannot run. */
import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { GrepQuery } from "../../src/tools/grep.js";
import { runRipgrep } from "../../src/tools/grep-ripgrep.js";
import { tempDir } from "../support/engine-harness.js";

const query = (cwd: string, maxOutputChars = 100_000): GrepQuery => ({
  pattern: "x",
  roots: [cwd],
  cwd,
  mode: "content",
  ignoreCase: false,
  before: 0,
  after: 0,
  lineNumbers: true,
  multiline: false,
  maxOutputChars,
});

/** A stand-in for rg: a script that ignores its arguments. */
function fakeRg(dir: string, body: string): string {
  const file = path.join(dir, "fake-rg");
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe("running rg", () => {
  it("stops at the output limit and keeps only complete lines", async () => {
    const dir = tempDir("rg-");
    const result = await runRipgrep(fakeRg(dir, "seq 1 200000"), query(dir, 1000), new AbortController().signal);
    expect(result.incomplete).toBe(true);
    expect(result.lines.length).toBeGreaterThan(100);
    expect(result.lines.join("\n").length).toBeLessThanOrEqual(1000);
    result.lines.forEach((line, index) => expect(line).toBe(String(index + 1)));
  });

  it("is stopped when the signal fires", async () => {
    const dir = tempDir("rg-");
    const controller = new AbortController();
    const pending = runRipgrep(fakeRg(dir, "exec sleep 30"), query(dir), controller.signal);
    setImmediate(() => controller.abort());
    await expect(pending).rejects.toMatchObject({ code: "aborted" });
  });

  it("reports exit 1 without output as no matches, and exit 2 with rg's message", async () => {
    const dir = tempDir("rg-");
    expect(await runRipgrep(fakeRg(dir, "exit 1"), query(dir), new AbortController().signal)).toEqual({ lines: [], incomplete: false });
    await expect(runRipgrep(fakeRg(dir, "echo 'bad regex' >&2; exit 2"), query(dir), new AbortController().signal)).rejects.toMatchObject({
      code: "ripgrep_error",
      message: "grep failed: bad regex",
    });
  });

  it("names a binary that cannot be run", async () => {
    const dir = tempDir("rg-");
    await expect(runRipgrep(path.join(dir, "no-such-rg"), query(dir), new AbortController().signal)).rejects.toMatchObject({ code: "ripgrep_failed" });
  });
});
