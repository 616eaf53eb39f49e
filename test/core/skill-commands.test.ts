/**
 * The skill commands a client maps its methods onto (the SDK's session.skills.list / enable / disable / reload /
 * ensureLoaded / getInvoked): list_skills, set_skill_enabled (for the session; persist keeps it in settings.json),
 * reload_skills, invoke_skill; and a resumed session whose skill approved tools approves them again.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, tempDir, type Harness } from "../support/engine-harness.js";
import { startScriptedServer, text } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function writeSkill(home: string, name: string, front = ""): string {
  mkdirSync(path.join(home, "skills", name), { recursive: true });
  const file = path.join(home, "skills", name, "SKILL.md");
  writeFileSync(file, `---\nname: ${name}\ndescription: The ${name} skill.\n${front}---\n${name} body\n`);
  return file;
}

describe("skill commands", () => {
  it("list_skills reads the skills on first use: state, source, path, what did not load, the plugins", async () => {
    harness = await startHarness();
    const file = writeSkill(harness.home, "alpha", "argument-hint: <x>\nallowed-tools: Read\n");
    mkdirSync(path.join(harness.home, "skills", "broken"), { recursive: true });
    writeFileSync(path.join(harness.home, "skills", "broken", "SKILL.md"), "nothing");
    const listing = harness.session.engine.dispatch({ type: "list_skills" });
    expect(listing.skills).toEqual([
      {
        name: "alpha",
        description: "The alpha skill.",
        source: "user",
        enabled: true,
        userInvocable: true,
        modelInvocable: true,
        path: file,
        argumentHint: "<x>",
        allowedTools: ["Read"],
      },
    ]);
    expect(listing.problems.errors).toEqual([
      `${path.join(harness.home, "skills", "broken", "SKILL.md")}: no YAML frontmatter (the file must start with a '---' line, then name and description, then another '---')`,
    ]);
    expect(listing.invoked).toEqual([]);
    expect(listing.plugins).toEqual([]);
    expect(
      harness
        .ofType("session.skills_loaded")
        .at(-1)
        ?.data.skills.map((skill) => skill.name),
    ).toEqual(["alpha"]);
  });

  it("set_skill_enabled changes the session only (persist writes settings.json); reload_skills sees a skill added on disk", async () => {
    harness = await startHarness();
    writeSkill(harness.home, "alpha");
    const dispatch = harness.session.engine.dispatch.bind(harness.session.engine);
    expect(dispatch({ type: "set_skill_enabled", name: "alpha", enabled: false })).toBeUndefined();
    expect(dispatch({ type: "list_skills" }).skills[0]?.enabled).toBe(false);
    expect(existsSync(path.join(harness.home, "settings.json"))).toBe(false);
    expect(dispatch({ type: "set_skill_enabled", name: "nope", enabled: true })).toBe("There is no skill named nope.");
    writeSkill(harness.home, "beta");
    expect(dispatch({ type: "list_skills" }).skills.map((skill) => skill.name)).toEqual(["alpha"]);
    expect(dispatch({ type: "reload_skills" })).toEqual({ errors: [], warnings: [] });
    expect(dispatch({ type: "list_skills" }).skills.map((skill) => [skill.name, skill.enabled])).toEqual([
      ["alpha", false],
      ["beta", true],
    ]);
  });

  it("invoke_skill loads a skill for the user and sends the line after it; an unknown or disabled one is refused", async () => {
    harness = await startHarness();
    writeSkill(harness.home, "alpha");
    harness.server.enqueue(text("done"));
    const dispatch = harness.session.engine.dispatch.bind(harness.session.engine);
    const result = await dispatch({ type: "invoke_skill", name: "alpha", prompt: "/alpha go" });
    expect(result.outcome).toBe("completed");
    expect(dispatch({ type: "list_skills" }).invoked).toEqual([
      { name: "alpha", path: path.join(harness.home, "skills", "alpha", "SKILL.md"), content: "alpha body", trigger: "user-invoked" },
    ]);
    await expect(dispatch({ type: "invoke_skill", name: "nope", prompt: "/nope" })).rejects.toThrow("There is no skill named nope.");
    dispatch({ type: "set_skill_enabled", name: "alpha", enabled: false });
    await expect(dispatch({ type: "invoke_skill", name: "alpha", prompt: "/alpha" })).rejects.toThrow("The skill alpha is disabled");
  });

  it("a resumed session's loaded skill approves its tools again (rebuilt from skill.invoked)", async () => {
    const server = await startScriptedServer();
    const home = tempDir("skills-resume-home-");
    const cwd = tempDir("skills-resume-cwd-");
    try {
      harness = await startHarness({ server, home, cwd });
      writeSkill(home, "toucher", "allowed-tools: Bash(touch:*)\n");
      server.enqueue(text("loaded"));
      await harness.session.engine.dispatch({ type: "invoke_skill", name: "toucher", prompt: "/toucher" });
      const id = harness.session.id;
      await harness.close();
      harness = await startHarness({ server, home, cwd, resumeId: id });
      server.enqueue({ kind: "stream", toolCalls: [{ name: "bash", arguments: { command: "touch again", description: "touch" } }] }, text("ok"));
      await harness.session.send("touch it again");
      expect(existsSync(path.join(cwd, "again"))).toBe(true);
    } finally {
      await harness?.close();
      harness = undefined;
      await server.close();
      for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
    }
  });
});
