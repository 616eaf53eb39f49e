/** Where skills come from, which one of a name wins, and what a bad file says. */
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSkills } from "../../src/skills/load-skills.js";
import { SkillCache } from "../../src/skills/skill-cache.js";
import { parseSkillFile, readSkillBody, splitToolList } from "../../src/skills/skill-file.js";
import { skillFilesIn, skillFolders } from "../../src/skills/skill-sources.js";
import { tempDir } from "../support/engine-harness.js";

function writeSkill(dir: string, name: string, front: string, body = `# ${name}\nDo it.`): string {
  mkdirSync(path.join(dir, name), { recursive: true });
  const file = path.join(dir, name, "SKILL.md");
  writeFileSync(file, `---\n${front}\n---\n${body}\n`);
  return file;
}

const skill = (name: string, extra = "") => `name: ${name}\ndescription: The ${name} skill.${extra}`;

function layout() {
  const root = tempDir("skills-");
  const agentHome = path.join(root, "agent-home");
  const copilotHome = path.join(root, "copilot-home");
  const userHome = path.join(root, "home");
  const repo = path.join(root, "repo");
  const cwd = path.join(repo, "packages", "app");
  mkdirSync(path.join(repo, ".git"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return { root, agentHome, copilotHome, userHome, repo, cwd };
}

describe("skill folders", () => {
  it("reads them in precedence order: user (ours, Copilot's, ~/.claude, ~/.agents), project (cwd up to the git root), plugins, configured", () => {
    const where = layout();
    const folders = skillFolders({
      ...where,
      gitRoot: where.repo,
      plugins: [{ dir: path.join(where.root, "plugin", "skills"), pluginName: "tools", pluginVersion: "1.0.0" }],
      customDirs: ["~/more-skills", "relative"],
    });
    expect(folders.map((folder) => path.relative(where.root, folder.dir))).toEqual([
      "agent-home/skills",
      "copilot-home/skills",
      "home/.claude/skills",
      "home/.agents/skills",
      "repo/packages/app/.github/skills",
      "repo/packages/app/.claude/skills",
      "repo/packages/app/.agents/skills",
      "repo/packages/.github/skills",
      "repo/packages/.claude/skills",
      "repo/packages/.agents/skills",
      "repo/.github/skills",
      "repo/.claude/skills",
      "repo/.agents/skills",
      "plugin/skills",
      "home/more-skills",
      "repo/packages/app/relative",
    ]);
    expect(folders.find((folder) => folder.dir.endsWith(path.join("plugin", "skills")))?.origin).toEqual({
      source: "plugin",
      pluginName: "tools",
      pluginVersion: "1.0.0",
    });
    expect(folders.find((folder) => folder.dir === path.join(where.repo, ".github", "skills"))?.origin).toEqual({ source: "project", trustFolder: where.repo });
  });

  it("reads a folder named twice once, at its first place (the working directory is the home)", () => {
    const where = layout();
    const folders = skillFolders({ agentHome: where.agentHome, userHome: where.cwd, cwd: where.cwd });
    const claude = folders.filter((folder) => folder.dir === path.join(where.cwd, ".claude", "skills"));
    expect(claude).toHaveLength(1);
    expect(claude[0]?.origin.source).toBe("user");
  });
});

describe("loadSkills", () => {
  it("the first skill of a name wins; the later one is reported with both files, not dropped silently", () => {
    const where = layout();
    const user = writeSkill(path.join(where.agentHome, "skills"), "review", skill("review"));
    const repoFile = writeSkill(path.join(where.repo, ".github", "skills"), "review", skill("review"));
    writeSkill(path.join(where.repo, ".claude", "skills"), "deploy", skill("deploy"));
    const loaded = loadSkills(skillFolders({ ...where, gitRoot: where.repo }));
    expect(loaded.skills.map((found) => [found.name, found.source])).toEqual([
      ["review", "user"],
      ["deploy", "project"],
    ]);
    expect(loaded.skills[0]?.file).toBe(user);
    expect(loaded.warnings).toEqual([
      { file: repoFile, field: "name", message: `not loaded: the skill "review" of ${user} (user) has the same name and comes first` },
    ]);
    expect(loaded.errors).toEqual([]);
  });

  it("ours wins over Copilot's home of the same name, which wins over ~/.claude/skills", () => {
    const where = layout();
    writeSkill(path.join(where.copilotHome, "skills"), "a", skill("a"));
    writeSkill(path.join(where.userHome, ".claude", "skills"), "a", skill("a"));
    const ours = writeSkill(path.join(where.agentHome, "skills"), "a", skill("a"));
    const loaded = loadSkills(skillFolders(where));
    expect(loaded.skills.map((found) => found.file)).toEqual([ours]);
    expect(loaded.warnings).toHaveLength(2);
  });

  /** [what, the skill's folder, its frontmatter, the field reported, the message]. */
  const badCases: [string, string, string, string | undefined, RegExp][] = [
    ["no frontmatter", "bare", "", undefined, /no YAML frontmatter/],
    ["bad YAML", "yaml", "name: [unclosed\ndescription: x", undefined, /not valid YAML/],
    ["no description", "nodesc", "name: nodesc", "description", /missing/],
    ["an empty description", "emptydesc", 'name: emptydesc\ndescription: ""', "description", /missing/],
    ["a long description", "long", `name: long\ndescription: ${"x".repeat(1025)}`, "description", /1,024/],
    ["a name that is not kebab-case", "Bad_Name", "name: Bad_Name\ndescription: d", "name", /not a skill name/],
    ["a name over 64 characters", "a".repeat(65), `name: ${"a".repeat(65)}\ndescription: d`, "name", /at most 64/],
    ["a name that differs from its folder", "mismatch", "name: other\ndescription: d", "name", /must match the skill's folder name/],
    ["a flag that is not a boolean", "flag", "name: flag\ndescription: d\nuser-invocable: maybe", "user-invocable", /true or false/],
    ["allowed-tools of the wrong type", "tools", "name: tools\ndescription: d\nallowed-tools:\n  a: 1", "allowed-tools", /list of tool names/],
    ["an argument-hint that is not text", "hint", "name: hint\ndescription: d\nargument-hint: [1, 2]", "argument-hint", /must be text/],
  ];
  for (const [what, folder, front, field, message] of badCases) {
    it(`reports ${what} (file and field) while the good skills load`, () => {
      const where = layout();
      const dir = path.join(where.agentHome, "skills");
      mkdirSync(path.join(dir, folder), { recursive: true });
      const bad = path.join(dir, folder, "SKILL.md");
      writeFileSync(bad, front === "" ? "# just a body\n" : `---\n${front}\n---\nbody\n`);
      writeSkill(dir, "good", skill("good"));
      const loaded = loadSkills(skillFolders({ agentHome: where.agentHome, userHome: where.userHome, cwd: where.cwd }));
      expect(loaded.skills.map((found) => found.name)).toEqual(["good"]);
      expect(loaded.errors).toHaveLength(1);
      expect(loaded.errors[0]?.file).toBe(bad);
      expect(loaded.errors[0]?.field).toBe(field);
      expect(loaded.errors[0]?.message).toMatch(message);
    });
  }

  it("ignores folders without a SKILL.md (a skill's scripts/) and reads a folder that is itself a skill", () => {
    const where = layout();
    const dir = path.join(where.root, "configured");
    mkdirSync(path.join(dir, "scripts"), { recursive: true });
    writeFileSync(path.join(dir, "README.md"), "not a skill");
    const single = path.join(where.root, "single-skill");
    mkdirSync(single, { recursive: true });
    writeFileSync(path.join(single, "SKILL.md"), `---\n${skill("single-skill")}\n---\nbody`);
    const loaded = loadSkills(skillFolders({ userHome: where.userHome, cwd: where.cwd, customDirs: [dir, single] }));
    expect(loaded.skills.map((found) => [found.name, found.source])).toEqual([["single-skill", "custom"]]);
    expect(loaded.errors).toEqual([]);
  });

  it("names each skill's file as path.join would, however the folder is spelled", () => {
    const where = layout();
    const dir = path.join(where.root, "many");
    for (const name of ["b-skill", "a-skill", "c", ".hidden", "notes.md", "x y"]) mkdirSync(path.join(dir, name), { recursive: true });
    const spellings = [dir, `${dir}${path.sep}`, path.join(dir, "..", "many"), `${dir}${path.sep}.${path.sep}`, `${dir}${path.sep}${path.sep}`];
    const expected = ["a-skill", "b-skill", "c", "x y"].map((name) => path.join(dir, name, "SKILL.md"));
    for (const spelling of spellings) expect(skillFilesIn(spelling), spelling).toEqual(expected);
    expect(skillFilesIn(path.join(where.root, "missing"))).toEqual([]);
  });
});

describe("parseSkillFile", () => {
  it("reads Copilot's and Claude's keys; the name defaults to the folder; other keys are ignored", () => {
    const file = "/x/skills/pdf/SKILL.md";
    const parsed = parseSkillFile(
      file,
      "---\ndescription: PDFs\nallowed-tools: Bash(git add:*), Read Write\nuser-invocable: false\ndisable-model-invocation: true\nargument-hint: <file>\nlicense: MIT\nmodel: opus\nmetadata:\n  version: '1'\n---\nbody",
      { source: "user" },
    );
    expect(parsed).toEqual({
      ok: true,
      skill: {
        name: "pdf",
        description: "PDFs",
        file,
        dir: "/x/skills/pdf",
        source: "user",
        allowedTools: ["Bash(git add:*)", "Read", "Write"],
        userInvocable: false,
        modelInvocable: false,
        argumentHint: "<file>",
        license: "MIT",
      },
    });
  });

  it("splits allowed-tools on commas and spaces outside parentheses, or takes a YAML list", () => {
    expect(splitToolList("Bash(git add:*) Bash(npm run test), Read")).toEqual(["Bash(git add:*)", "Bash(npm run test)", "Read"]);
    expect(splitToolList(["shell(git:*)", "write"])).toEqual(["shell(git:*)", "write"]);
  });

  it("reads the body only when asked, without the frontmatter", () => {
    const where = layout();
    const file = writeSkill(where.root, "body", skill("body"), "# Title\n\nSteps.");
    expect(readSkillBody(file)).toBe("# Title\n\nSteps.");
  });
});

describe("the frontmatter cache", () => {
  it("answers for a file of the same size and time without reading it, reads a changed one again, and survives damage", () => {
    const where = layout();
    const dir = path.join(where.agentHome, "skills");
    const file = writeSkill(dir, "cached", skill("cached"));
    // A whole second, so setting it again gives the very same time.
    const mtime = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    utimesSync(file, mtime, mtime);
    const cacheFile = path.join(where.agentHome, "skills-cache.json");
    const folders = skillFolders({ agentHome: where.agentHome, cwd: where.cwd });
    expect(loadSkills(folders, new SkillCache(cacheFile)).skills[0]?.description).toBe("The cached skill.");
    expect(existsSync(cacheFile)).toBe(true);
    // Same size, same time, other words: the cache's answer is what a start sees (it never reads the file).
    writeFileSync(file, readFileSync(file, "utf8").replace("The cached skill.", "The CACHED skill."));
    utimesSync(file, mtime, mtime);
    expect(loadSkills(folders, new SkillCache(cacheFile)).skills[0]?.description).toBe("The cached skill.");
    // A change of time: read again.
    utimesSync(file, new Date(mtime.getTime() + 5000), new Date(mtime.getTime() + 5000));
    expect(loadSkills(folders, new SkillCache(cacheFile)).skills[0]?.description).toBe("The CACHED skill.");
    // Where a skill was found is the folder's, not the cache's.
    expect(loadSkills(skillFolders({ cwd: where.cwd, customDirs: [dir] }), new SkillCache(cacheFile)).skills[0]?.source).toBe("custom");
    writeFileSync(cacheFile, "{ damaged");
    expect(loadSkills(folders, new SkillCache(cacheFile)).skills.map((found) => found.name)).toEqual(["cached"]);
  });

  it("is read again at each load, not held by the session between them", () => {
    const where = layout();
    writeSkill(path.join(where.agentHome, "skills"), "held", skill("held"));
    const cacheFile = path.join(where.agentHome, "skills-cache.json");
    const folders = skillFolders({ agentHome: where.agentHome, cwd: where.cwd });
    const cache = new SkillCache(cacheFile);
    expect(loadSkills(folders, cache).skills[0]?.description).toBe("The held skill.");
    // What the file says now is what the next load (a reload, with the same cache) answers from.
    writeFileSync(cacheFile, readFileSync(cacheFile, "utf8").replace("The held skill.", "As the cache file says."));
    expect(loadSkills(folders, cache).skills[0]?.description).toBe("As the cache file says.");
  });

  it("keeps a bad file's problem too", () => {
    const where = layout();
    mkdirSync(path.join(where.agentHome, "skills", "bad"), { recursive: true });
    writeFileSync(path.join(where.agentHome, "skills", "bad", "SKILL.md"), "---\nname: bad\n---\n");
    const cacheFile = path.join(where.agentHome, "skills-cache.json");
    const folders = skillFolders({ agentHome: where.agentHome, cwd: where.cwd });
    const first = loadSkills(folders, new SkillCache(cacheFile));
    expect(loadSkills(folders, new SkillCache(cacheFile)).errors).toEqual(first.errors);
    expect(first.errors[0]?.field).toBe("description");
  });
});
