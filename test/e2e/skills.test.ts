/** Skills with the real bin/agent against the scripted server: the model loads one, the user invokes one, trust, visibility. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall, type ChatMessageLike } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace({ prefix: "skills" });

function writeSkill(dir: string, name: string, front: string, body = `# ${name}\n${name.toUpperCase()} BODY MARKER`): string {
  mkdirSync(path.join(dir, name), { recursive: true });
  const file = path.join(dir, name, "SKILL.md");
  writeFileSync(file, `---\nname: ${name}\ndescription: The ${name} skill, for ${name} work.\n${front}---\n${body}\n`);
  return file;
}

const userSkills = () => path.join(ws.home, "skills");

function messages(index: number): ChatMessageLike[] {
  return ws.server.completionRequests[index]?.body.messages ?? [];
}

const systemOf = (index: number) => String(messages(index).find((message) => message.role === "system")?.content ?? "");
const toolsOf = (index: number) =>
  ((ws.server.completionRequests[index]?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

/** The events of the one session in the home; none when there is none (a -p run that reached no model keeps no session). */
function loggedEvents(): { type: string; data: Record<string, unknown> }[] {
  const [id] = existsSync(path.join(ws.home, "session-state")) ? readdirSync(path.join(ws.home, "session-state")) : [];
  if (id === undefined) return [];
  return readFileSync(path.join(ws.home, "session-state", id as string, "events.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
}

describe("the model loads a skill", () => {
  it("sees <available_skills>, calls skill, gets Copilot's result text and the <skill-context> message; skill.invoked is in the log", async () => {
    const file = writeSkill(userSkills(), "pdf-report", "argument-hint: <file>\n");
    ws.server.enqueue(toolCall("skill", { skill: "pdf-report" }), text("Followed it."));
    const run = await runAgent(["-p", "make a report"], { env: ws.env(), cwd: ws.cwd });
    expect(run.stderr).not.toContain("Skill not loaded");
    expect(run.code).toBe(0);
    expect(systemOf(0)).toContain(
      "<available_skills>\n<skill>\n<name>pdf-report</name>\n<description>The pdf-report skill, for pdf-report work.</description>\n<location>user</location>\n</skill>\n</available_skills>",
    );
    expect(toolsOf(0)).toContain("skill");
    // Frontmatter only at first: the body is not in the first request.
    expect(JSON.stringify(messages(0))).not.toContain("PDF-REPORT BODY MARKER");
    const second = messages(1);
    const toolResult = second.find((message) => message.role === "tool");
    expect(toolResult?.content).toBe('Skill "pdf-report" loaded successfully. Follow the instructions in the skill context.');
    const last = second.at(-1);
    expect(last?.role).toBe("user");
    expect(last?.content).toBe(
      `<skill-context name="pdf-report">\nBase directory for this skill: ${path.dirname(file)}\n\n# pdf-report\nPDF-REPORT BODY MARKER\n\n</skill-context>`,
    );
    const invoked = loggedEvents().find((event) => event.type === "skill.invoked");
    expect(invoked?.data).toMatchObject({
      name: "pdf-report",
      path: file,
      content: "# pdf-report\nPDF-REPORT BODY MARKER",
      source: "user",
      trigger: "agent-invoked",
    });
  });

  it("an unknown name is an error listing the skills there are", async () => {
    writeSkill(userSkills(), "lint", "");
    ws.server.enqueue(toolCall("skill", { skill: "nope" }), text("ok"));
    const run = await runAgent(["-p", "go"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(messages(1).find((message) => message.role === "tool")?.content).toBe('Skill "nope" is not available. Available skills: lint.');
  });

  it("--excluded-tools skill hides the tool and the list with it", async () => {
    writeSkill(userSkills(), "lint", "");
    ws.server.enqueue(text("hi"));
    const run = await runAgent(["-p", "hi", "--excluded-tools", "skill"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(toolsOf(0)).not.toContain("skill");
    expect(systemOf(0)).not.toContain("available_skills");
  });

  it("a session without skills offers no skill tool and no list", async () => {
    ws.server.enqueue(text("hi"));
    const run = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(toolsOf(0)).not.toContain("skill");
    expect(systemOf(0)).not.toContain("available_skills");
  });
});

describe("/<skill> arguments", () => {
  it("-p '/pdf-report data.csv' loads the skill, then sends the line as typed; skill.invoked says the user invoked it", async () => {
    const file = writeSkill(userSkills(), "pdf-report", "");
    ws.server.enqueue(text("Report made."));
    const run = await runAgent(["-p", "/pdf-report data.csv"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Report made.");
    const sent = messages(0).filter((message) => message.role === "user");
    expect(sent.map((message) => String(message.content))).toEqual([
      `<skill-context name="pdf-report">\nBase directory for this skill: ${path.dirname(file)}\n\n# pdf-report\nPDF-REPORT BODY MARKER\n\n</skill-context>`,
      expect.stringMatching(/^<current_datetime>.*<\/current_datetime>\n\n\/pdf-report data\.csv$/s),
    ]);
    expect(loggedEvents().find((event) => event.type === "skill.invoked")?.data).toMatchObject({ name: "pdf-report", trigger: "user-invoked" });
  });

  it("a built-in command keeps its name: a skill called env does not replace /env", async () => {
    writeSkill(userSkills(), "env", "");
    const run = await runAgent(["-p", "/env"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Working directory:");
    expect(ws.server.completionRequests).toHaveLength(0);
    expect(loggedEvents().some((event) => event.type === "skill.invoked")).toBe(false);
  });

  it("user-invocable: false keeps a skill from /<name> (an error), while the model still sees it", async () => {
    writeSkill(userSkills(), "background", "user-invocable: false\n");
    const run = await runAgent(["-p", "/background now"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("not for invoking by hand");
    expect(ws.server.completionRequests).toHaveLength(0);
    ws.server.enqueue(text("ok"));
    await runAgent(["-p", "hello"], { env: ws.env(), cwd: ws.cwd });
    expect(systemOf(0)).toContain("<name>background</name>");
  });

  it("disable-model-invocation: true hides a skill from the model but not from the user", async () => {
    writeSkill(userSkills(), "deploy", "disable-model-invocation: true\n");
    writeSkill(userSkills(), "visible", "");
    ws.server.enqueue(toolCall("skill", { skill: "deploy" }), text("could not"));
    await runAgent(["-p", "deploy it"], { env: ws.env(), cwd: ws.cwd });
    expect(systemOf(0)).not.toContain("<name>deploy</name>");
    expect(systemOf(0)).toContain("<name>visible</name>");
    expect(messages(1).find((message) => message.role === "tool")?.content).toBe('Skill "deploy" is not available. Available skills: visible.');
    ws.server.enqueue(text("deployed"));
    const byHand = await runAgent(["-p", "/deploy"], { env: ws.env(), cwd: ws.cwd });
    expect(byHand.code).toBe(0);
    expect(String(messages(2)[1]?.content)).toContain('<skill-context name="deploy">');
  });
});

describe("where skills come from", () => {
  it("a bad SKILL.md is reported once on stderr (file and field) while the good ones load", async () => {
    writeSkill(userSkills(), "good", "");
    mkdirSync(path.join(userSkills(), "bad"), { recursive: true });
    writeFileSync(path.join(userSkills(), "bad", "SKILL.md"), "---\nname: bad\n---\nno description\n");
    ws.server.enqueue(text("ok"));
    const run = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    const line = `${path.join(userSkills(), "bad", "SKILL.md")}: field "description": missing`;
    expect(run.stderr.split(line).length - 1).toBe(1);
    expect(systemOf(0)).toContain("<name>good</name>");
  });

  it("reads the project's .github/.claude/.agents skills up to the git root, settings' skillDirectories and COPILOT_SKILLS_DIRS", async () => {
    execFileSync("git", ["init", "-q"], { cwd: ws.cwd });
    const sub = path.join(ws.cwd, "sub");
    mkdirSync(sub);
    writeSkill(path.join(ws.cwd, ".claude", "skills"), "from-root", "");
    writeSkill(path.join(sub, ".agents", "skills"), "from-sub", "");
    const configured = path.join(ws.home, "configured");
    const fromEnv = path.join(ws.home, "env-skills");
    writeSkill(configured, "from-settings", "");
    writeSkill(fromEnv, "from-env", "");
    writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify({ skillDirectories: [configured], disabledSkills: ["from-env"] }));
    ws.server.enqueue(text("ok"));
    const run = await runAgent(["-p", "hi"], { env: ws.env({ COPILOT_SKILLS_DIRS: fromEnv }), cwd: sub });
    expect(run.code).toBe(0);
    const names = [...systemOf(0).matchAll(/<name>([^<]+)<\/name>/g)].map((match) => match[1]);
    expect(names).toEqual(["from-sub", "from-root", "from-settings"]);
    expect(systemOf(0)).toContain("<location>project</location>");
    expect(systemOf(0)).toContain("<location>custom</location>");
  });
});

describe("allowed-tools", () => {
  // `touch` writes, so without a rule that allows it a run with nobody to ask denies it.
  const script = () =>
    ws.server.enqueue(toolCall("skill", { skill: "toucher" }), toolCall("bash", { command: "touch made-by-skill", description: "touch" }), text("done"));
  /** The bash call's result: the last tool message of the third request (after the skill's result and context). */
  const bashResult = () =>
    String(
      messages(2)
        .filter((message) => message.role === "tool")
        .at(-1)?.content,
    );
  const made = () => readdirSync(ws.cwd).includes("made-by-skill");

  it("a user skill's allowed-tools approve its tools while it is active (-p, nobody to ask)", async () => {
    writeSkill(userSkills(), "toucher", "allowed-tools: Bash(touch:*)\n");
    script();
    const run = await runAgent(["-p", "touch it"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(made()).toBe(true);
    expect(loggedEvents().find((event) => event.type === "skill.invoked")?.data.allowedTools).toEqual(["shell(touch:*)"]);
  });

  it("without the skill the same call is denied (the rule is the skill's)", async () => {
    ws.server.enqueue(toolCall("bash", { command: "touch made-by-skill", description: "touch" }), text("done"));
    const run = await runAgent(["-p", "touch it"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(made()).toBe(false);
  });

  it("an untrusted repository's skill cannot approve tools: the call is denied and a warning says why", async () => {
    execFileSync("git", ["init", "-q"], { cwd: ws.cwd });
    writeSkill(path.join(ws.cwd, ".github", "skills"), "toucher", "allowed-tools: Bash(touch:*)\n");
    script();
    const run = await runAgent(["-p", "touch it"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(made()).toBe(false);
    expect(bashResult()).toContain("Permission denied");
    expect(run.stderr).toContain(`but ${ws.cwd} is not a trusted folder`);
    expect(loggedEvents().find((event) => event.type === "skill.invoked")?.data.allowedTools).toBeUndefined();
  });

  it("a trusted repository's skill can", async () => {
    execFileSync("git", ["init", "-q"], { cwd: ws.cwd });
    writeSkill(path.join(ws.cwd, ".github", "skills"), "toucher", "allowed-tools: Bash(touch:*)\n");
    writeFileSync(path.join(ws.home, "config.json"), JSON.stringify({ trustedFolders: [ws.cwd] }));
    script();
    const run = await runAgent(["-p", "touch it"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(made()).toBe(true);
  });
});

describe("/skills", () => {
  it("lists the skills and why one did not load; disable keeps the choice in settings.json and hides it from the model", async () => {
    writeSkill(userSkills(), "alpha", "");
    writeSkill(userSkills(), "beta", "");
    mkdirSync(path.join(userSkills(), "gamma"), { recursive: true });
    writeFileSync(path.join(userSkills(), "gamma", "SKILL.md"), "no frontmatter\n");
    const list = await runAgent(["-p", "/skills"], { env: ws.env(), cwd: ws.cwd });
    expect(list.code).toBe(0);
    expect(list.stderr).toContain("● alpha (user)");
    expect(list.stderr).toContain(`${path.join(userSkills(), "gamma", "SKILL.md")}: no YAML frontmatter`);
    const disable = await runAgent(["-p", "/skills disable beta"], { env: ws.env(), cwd: ws.cwd });
    expect(disable.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(ws.home, "settings.json"), "utf8"))).toEqual({ disabledSkills: ["beta"] });
    ws.server.enqueue(text("ok"));
    await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(systemOf(0)).toContain("<name>alpha</name>");
    expect(systemOf(0)).not.toContain("<name>beta</name>");
    const enable = await runAgent(["-p", "/skills enable beta"], { env: ws.env(), cwd: ws.cwd });
    expect(enable.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(ws.home, "settings.json"), "utf8"))).toEqual({});
  });
});

describe("skills through compaction", () => {
  it("a compaction that summarises a loaded skill away says so; the list stays, so the model loads it again (re-inject on demand)", async () => {
    writeSkill(userSkills(), "pdf-report", "");
    ws.server.enqueue(toolCall("skill", { skill: "pdf-report" }), text("Loaded."));
    expect((await runAgent(["-p", "make a report"], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
    for (const prompt of ["thanks", "more", "again"]) {
      ws.server.enqueue(text(`ok: ${prompt}`));
      expect((await runAgent(["--continue", "-p", prompt], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
    }
    ws.server.enqueue(text("<overview>Made a report.</overview>\n<checkpoint_title>Report</checkpoint_title>"));
    expect((await runAgent(["--continue", "-p", "/compact"], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
    ws.server.enqueue(toolCall("skill", { skill: "pdf-report" }), text("Loaded again."));
    expect((await runAgent(["--continue", "-p", "one more report"], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
    const afterCompaction = ws.server.completionRequests.length - 2;
    const sent = messages(afterCompaction);
    expect(String(sent[1]?.content)).toContain("Made a report.");
    expect(String(sent[1]?.content)).toContain("The instructions of the skills loaded earlier (pdf-report) are no longer in this conversation");
    expect(JSON.stringify(sent)).not.toContain("PDF-REPORT BODY MARKER");
    expect(systemOf(afterCompaction)).toContain("<name>pdf-report</name>");
    expect(String(messages(afterCompaction + 1).at(-1)?.content)).toContain("PDF-REPORT BODY MARKER");
  });
});
