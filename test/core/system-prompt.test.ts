import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadCustomInstructions } from "../../src/core/custom-instructions.js";
import { workingDirectoryContext } from "../../src/core/environment.js";
import { startHarness, tempDir, type Harness } from "../support/engine-harness.js";
import { text } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function gitRepo(branch: string): string {
  const root = tempDir("repo-");
  mkdirSync(path.join(root, ".git"));
  writeFileSync(path.join(root, ".git", "HEAD"), `ref: refs/heads/${branch}\n`);
  writeFileSync(path.join(root, ".git", "config"), '[remote "origin"]\n\turl = git@github.com:octo/widgets.git\n');
  return root;
}

describe("environment and instructions", () => {
  it("reads the git root, branch and repository without running git", () => {
    const root = gitRepo("feature/x");
    const sub = path.join(root, "packages", "a");
    mkdirSync(sub, { recursive: true });
    expect(workingDirectoryContext(sub)).toEqual({ cwd: sub, gitRoot: root, branch: "feature/x", repository: "octo/widgets" });
    expect(workingDirectoryContext(tempDir("plain-"))).toEqual({ cwd: expect.any(String) });
  });

  it("loads AGENTS.md, .github instructions and the personal file, once each", () => {
    const root = gitRepo("main");
    const home = tempDir("home-");
    writeFileSync(path.join(root, "AGENTS.md"), "Use tabs.");
    mkdirSync(path.join(root, ".github", "instructions"), { recursive: true });
    writeFileSync(path.join(root, ".github", "copilot-instructions.md"), "Run npm test.");
    writeFileSync(path.join(root, ".github", "instructions", "ts.instructions.md"), "Prefer const.");
    writeFileSync(path.join(home, "copilot-instructions.md"), "Answer in English.");
    const files = loadCustomInstructions({ cwd: root, gitRoot: root, agentHome: home });
    expect(files.map((file) => path.relative(root, file.path))).toEqual([
      "AGENTS.md",
      path.join(".github", "copilot-instructions.md"),
      path.join(".github", "instructions", "ts.instructions.md"),
      path.relative(root, path.join(home, "copilot-instructions.md")),
    ]);
  });
});

describe("the system prompt sent to the model", () => {
  it("describes the environment, the tools, the mode and the custom instructions", async () => {
    const cwd = gitRepo("main");
    writeFileSync(path.join(cwd, "AGENTS.md"), "Always write tests first.");
    harness = await startHarness({ cwd, mode: "autopilot" });
    harness.server.enqueue(text("ok"));
    await harness.session.send("hi");
    const system = String(harness.server.completionRequests[0]?.body.messages[0]?.content);
    expect(system).toContain(`Working directory: ${cwd}`);
    expect(system).toContain("(branch main)");
    expect(system).toContain("running non-interactively");
    expect(system).toContain('<mode name="autopilot">');
    expect(system).toMatch(/<custom_instruction path="[^"]*AGENTS\.md">\nAlways write tests first\.\n<\/custom_instruction>/);
    expect(system).toContain("task_complete ends the task");
    const user = String(harness.server.completionRequests[0]?.body.messages[1]?.content);
    expect(user).toMatch(/^<current_datetime>\d{4}-\d\d-\d\dT[^<]+<\/current_datetime>\n\nhi$/);
  });

  it("delivers a mode switch once, inside the next user message", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("one"), text("two"), text("three"));
    await harness.session.send("first");
    harness.session.setMode("autopilot");
    harness.server.enqueue(...Array.from({ length: 6 }, () => text("...")));
    await harness.session.send("second");
    const second = String(harness.server.completionRequests[1]?.body.messages.at(-1)?.content);
    expect(second).toContain("<mode_changed_notice>");
    expect(second).toContain("switched to autopilot");
    const third = String(harness.server.completionRequests[2]?.body.messages.at(-1)?.content);
    expect(third).not.toContain("<mode_changed_notice>");
    expect(harness.ofType("session.mode_changed")[0]?.data).toEqual({ previousMode: "interactive", newMode: "autopilot" });
  });
});

describe("files mentioned with @", () => {
  it("reach the model as a <tagged_files> block with their line counts (a directory's entries), then each text file's contents", async () => {
    harness = await startHarness();
    writeFileSync(path.join(harness.cwd, "a.ts"), "one\ntwo\nthree\n");
    mkdirSync(path.join(harness.cwd, "src"));
    harness.server.enqueue(text("ok"));
    await harness.session.send("look at @a.ts and @src", {
      attachments: [
        { type: "file", path: "a.ts" },
        { type: "directory", path: "src" },
      ],
    });
    const sent = String(harness.server.completionRequests[0]?.body.messages.at(-1)?.content);
    expect(sent).toContain(
      `look at @a.ts and @src\n\n\n\n<tagged_files>\n* ${path.join(harness.cwd, "a.ts")} (3 lines)\n* ${path.join(harness.cwd, "src")} (0 items)\n</tagged_files>` +
        `\n\n<file_contents path="${path.join(harness.cwd, "a.ts")}">\none\ntwo\nthree\n</file_contents>`,
    );
    expect(harness.ofType("user.message")[0]?.data.attachments).toHaveLength(2);
  });
});
