/**
 * Every flag a headless denial suggests works: for each kind of need, the advice is read back out of its text
 * (as a user would copy it), applied, and the same call is then allowed. Where the advice says no flag
 * helps, none does.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PermissionRequest } from "../../src/protocol/events/index.js";
import { adviceFor, directoryToAdd } from "../../src/core/permission-advice.js";
import { adviceText } from "../../src/cli/permission-advice-text.js";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import { flagsFromArgv, suggestedArgv } from "../support/advice-flags.js";
import { checkPermission, shell } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("perm-advice-");
const ws = path.join(root, "ws");
const outside = path.join(root, "outside");
const spaced = path.join(root, "it's outside");
for (const dir of [path.join(ws, ".git"), path.join(outside, "deep"), spaced]) mkdirSync(dir, { recursive: true });
writeFileSync(path.join(outside, "secret.txt"), "s\n");
writeFileSync(path.join(spaced, "notes.txt"), "n\n");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const env = { HOME: path.join(root, "home"), PATH: "/usr/bin:/bin" };
const base: Partial<PermissionFlags> = { disallowTempDir: true };
const check = (request: PermissionRequest, tool: string, flags: Partial<PermissionFlags> = {}, settings = {}) =>
  checkPermission(request, tool, { cwd: ws, flags: { ...base, ...flags }, env, homeDir: env.HOME, settings });

async function adviceOf(request: PermissionRequest, tool: string, settings = {}): Promise<string> {
  const decision = await check(request, tool, {}, settings);
  if (decision.verdict !== "ask") throw new Error(`expected ask, got ${decision.verdict}: ${decision.reason}`);
  return adviceText(adviceFor(decision));
}

const write = (file: string): PermissionRequest => ({ kind: "write", fileName: file, diff: "", intention: "x" });
const read = (file: string): PermissionRequest => ({ kind: "read", path: file, intention: "x" });

const cases: [string, PermissionRequest, string, string[]][] = [
  ["a command", shell("touch made.txt"), "bash", ["--allow-tool 'shell(touch)'"]],
  ["a two-word command", shell("git init -q"), "bash", ["--allow-tool 'shell(git init)'"]],
  ["a script by path", shell("./run.sh"), "bash", ["shell(run.sh)"]],
  ["a write", write(path.join(ws, "new.txt")), "create", ["--allow-tool write"]],
  ["a file outside: its directory, not the file", read(path.join(outside, "secret.txt")), "view", [`--add-dir ${outside} `]],
  ["a directory outside: itself", shell(`ls ${path.join(outside, "deep")}`), "bash", [`--add-dir ${path.join(outside, "deep")}`]],
  [
    "a new file in a new directory outside: the nearest that exists",
    write(path.join(outside, "new", "sub", "x.txt")),
    "create",
    [`--add-dir ${outside} `, "--allow-tool write"],
  ],
  [
    "a command writing outside",
    shell(`echo x > ${path.join(outside, "out.txt")} && touch y`),
    "bash",
    ["--allow-tool 'shell(touch)'", "--allow-tool write", `--add-dir ${outside} `],
  ],
  ["a directory with a quote and a space", read(path.join(spaced, "notes.txt")), "view", [`--add-dir '${root}/it'\\''s outside'`]],
  ["a URL", shell("curl -s https://example.com/a/b"), "bash", ["--allow-url https://example.com "]],
  ["a URL with a port", shell("curl -s http://127.0.0.1:8080/x"), "bash", ["--allow-url http://127.0.0.1:8080"]],
];

describe("the flags a denial suggests", () => {
  it.each(cases)("%s: each alternative allows the call", async (_name, request, tool, mentions) => {
    const message = await adviceOf(request, tool);
    for (const mention of mentions) expect(message).toContain(mention);
    const alternatives = suggestedArgv(message);
    expect(alternatives.length, message).toBeGreaterThanOrEqual(2);
    for (const argv of alternatives) {
      const flags = flagsFromArgv(argv);
      // What the CLI checks before starting: every --add-dir is an existing directory.
      for (const dir of flags.addDir ?? []) expect(statSync(dir).isDirectory(), dir).toBe(true);
      const decision = await check(request, tool, flags);
      expect(decision.verdict, `${argv.join(" ")}: ${decision.reason}`).toBe("allow");
    }
  });

  it("an ask rule: says no flag helps, and none does", async () => {
    const settings = { permissions: { ask: ["shell(touch)"] } };
    const message = await adviceOf(shell("touch x"), "bash", settings);
    expect(message).toBe(
      "No flag allows this: the rule `shell(touch)` (settings.json permissions.ask) asks every time, so it can only run where a person can approve it.",
    );
    expect(
      (await check(shell("touch x"), "bash", { allowAllTools: true, allowAllPaths: true, allowAllUrls: true, allowTool: ["shell(touch)"] }, settings)).verdict,
    ).toBe("ask");
  });

  it("a command the analysis cannot follow: says no flag helps, and --yolo does not", async () => {
    const request = shell('eval "$(printf x)"');
    const decision = await check(request, "bash");
    if (decision.verdict !== "ask" || !decision.needs.some((need) => need.kind === "confirm")) return; // nothing opaque about it here
    expect(adviceText(adviceFor(decision))).toMatch(/^No flag allows this/);
    expect((await check(request, "bash", { allowAllTools: true, allowAllPaths: true, allowAllUrls: true })).verdict).not.toBe("allow");
  });

  it("a floor refusal: the settings.json key it names does switch that check off (decided, never run)", async () => {
    const request = shell(`rm -rf ${path.join(outside, "deep")}`);
    const yolo = { allowAllTools: true, allowAllPaths: true, allowAllUrls: true };
    const refused = await check(request, "bash", yolo);
    if (refused.verdict !== "deny" || !refused.floorCheck) throw new Error(`expected a floor refusal: ${refused.reason}`);
    expect(refused.reason).toContain("settings.json under permissions.floor.disable");
    const settings = { permissions: { floor: { disable: [refused.floorCheck] } } };
    expect((await check(request, "bash", yolo, settings)).verdict).toBe("allow");
  });

  it("directoryToAdd: a directory is itself; a file or a path not created yet is the nearest directory", () => {
    expect(directoryToAdd(outside)).toBe(outside);
    expect(directoryToAdd(path.join(outside, "secret.txt"))).toBe(outside);
    expect(directoryToAdd(path.join(outside, "a", "b", "c.txt"))).toBe(outside);
  });
});
