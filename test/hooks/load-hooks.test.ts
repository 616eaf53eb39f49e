/** Copilot's hook files load unchanged; a bad file is named with its field and the good ones still load. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isFolderTrusted, trustFolder } from "../../src/config/folder-trust.js";
import { collectHooks, readSettingsHooks } from "../../src/hooks/load-hooks.js";
import { tempDir } from "../support/engine-harness.js";

function write(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
}

describe("loading hooks", () => {
  it("reads user, settings and (when asked) repository hooks; reports bad files by name and field", () => {
    const home = tempDir("hooks-home-");
    const repo = tempDir("hooks-repo-");
    write(path.join(home, "hooks", "a.json"), {
      version: 1,
      hooks: {
        preToolUse: [{ type: "command", bash: "./check.sh", timeoutSec: 5, matcher: "bash|edit" }],
        promptMangled: [{ type: "command", bash: "x" }],
      },
    });
    write(path.join(home, "hooks", "b.json"), { version: 1, hooks: { preToolUse: [{ type: "command", bash: "x", timeoutSec: "soon" }] } });
    write(path.join(home, "hooks", "c.json"), "{ nope");
    write(path.join(repo, ".github", "hooks", "repo.json"), { version: 1, hooks: { sessionStart: [{ type: "command", bash: "echo hi", cwd: "scripts" }] } });
    const base = {
      agentHome: home,
      cwd: repo,
      gitRoot: repo,
      settingsFile: path.join(home, "settings.json"),
      settingsHooks: { agentStop: [{ type: "command", bash: "echo stop" }] },
    };
    const without = collectHooks({ ...base, includeRepo: false });
    expect(without.hooks.map((hook) => [hook.event, hook.command, hook.source.kind])).toEqual([
      ["preToolUse", "./check.sh", "user"],
      ["agentStop", "echo stop", "settings"],
    ]);
    expect(without.hooks[0]?.timeoutMs).toBe(5000);
    expect(without.hooks[0]?.matcher?.test("edit")).toBe(true);
    expect(without.hooks[0]?.matcher?.test("editor")).toBe(false);
    expect(without.problems).toHaveLength(2);
    expect(without.problems[0]).toContain("b.json: hooks.preToolUse.0.timeoutSec");
    expect(without.problems[1]).toContain("c.json: not valid JSON");
    const withRepo = collectHooks({ ...base, includeRepo: true });
    expect(withRepo.hooks.at(-1)).toMatchObject({ event: "sessionStart", cwd: path.join(repo, "scripts"), source: { kind: "repo" } });
  });

  it("accepts settings' hooks as a whole hook file too, and reports a bad matcher", () => {
    expect(readSettingsHooks({ version: 1, hooks: { sessionEnd: [{ type: "command", bash: "true" }] } }, "settings.json", "/").hooks).toHaveLength(1);
    // Copilot's prompt hooks are not run here, but do not make the file unreadable.
    const withPrompt = readSettingsHooks(
      {
        sessionStart: [
          { type: "prompt", prompt: "/help" },
          { type: "command", bash: "true" },
        ],
      },
      "settings.json",
      "/",
    );
    expect(withPrompt).toMatchObject({ problems: [], hooks: [{ event: "sessionStart", command: "true" }] });
    const bad = readSettingsHooks({ preToolUse: [{ type: "command", bash: "true", matcher: "(" }] }, "settings.json", "/");
    expect(bad.hooks).toEqual([]);
    expect(bad.problems[0]).toContain("hooks.preToolUse.0.matcher: not a valid regular expression");
  });
});

describe("folder trust", () => {
  it("a trusted folder covers its subfolders and other keys of config.json stay", () => {
    const home = tempDir("trust-home-");
    const folder = tempDir("trust-folder-");
    mkdirSync(path.join(folder, "sub"));
    write(path.join(home, "config.json"), { theme: "dark" });
    expect(isFolderTrusted(home, folder)).toBe(false);
    trustFolder(home, folder);
    expect(isFolderTrusted(home, path.join(folder, "sub"))).toBe(true);
    expect(isFolderTrusted(home, `${folder}-other`)).toBe(false);
    expect(JSON.parse(readFileSync(path.join(home, "config.json"), "utf8")).theme).toBe("dark");
  });
});
