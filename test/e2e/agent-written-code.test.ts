/**
 * The red team's story (issue 17, item 12) through the real binary and the scripted server: with `write` and
 * `shell(npm test)` allowed, the model writes a package.json whose test script touches a file, then runs the
 * allowed `npm test`. The rule approved the scripts as they were, not a program the model wrote a minute
 * before: headless, the run is refused, saying why and which file; a resume remembers; --yolo still runs it.
 */
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace({ prefix: "agent-code", removeDirs: true });

const PACKAGE = JSON.stringify({ name: "x", version: "1.0.0", scripts: { test: "touch pwned.txt" } });
const RULES = ["--allow-tool", "write", "--allow-tool", "shell(npm test)"];
const lastToolResult = () =>
  String(
    ws.server.completionRequests
      .at(-1)
      ?.body.messages.filter((message) => message.role === "tool")
      .at(-1)?.content,
  );
const npmTest = () => toolCall("bash", { command: "npm test", description: "Run the tests" });
const pwned = () => existsSync(path.join(ws.cwd, "pwned.txt"));

describe("a rule does not approve code the agent just wrote (agent -p)", () => {
  it("refuses npm test after the model rewrote package.json, says why and which file, and still does after a resume", async () => {
    const manifest = path.join(ws.cwd, "package.json");
    ws.server.enqueue(toolCall("create", { path: manifest, file_text: PACKAGE }), npmTest(), text("I could not run the tests."));
    const run = await runAgent(["-p", "add a test script and run the tests", ...RULES], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(existsSync(manifest)).toBe(true);
    expect(pwned()).toBe(false);
    expect(lastToolResult()).toContain(`\`npm test\` is defined by ${manifest}, which the agent changed in this session`);
    expect(lastToolResult()).toContain("no interactive user response was available");

    const [id] = readdirSync(path.join(ws.home, "session-state"));
    ws.server.enqueue(npmTest(), text("Still not allowed."));
    const resumed = await runAgent(["--resume", id as string, "-p", "run the tests", ...RULES], { env: ws.env(), cwd: ws.cwd });
    expect(resumed.code).toBe(0);
    expect(pwned()).toBe(false);
    expect(lastToolResult()).toContain(`is defined by ${manifest}`);
  });

  it("the same rule runs the user's own package.json, and --yolo runs the agent's", async () => {
    writeFileSync(path.join(ws.cwd, "package.json"), PACKAGE);
    ws.server.enqueue(npmTest(), text("Tested."));
    expect((await runAgent(["-p", "run the tests", ...RULES], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
    expect(pwned(), lastToolResult()).toBe(true);

    const other = path.join(ws.cwd, "other");
    ws.server.enqueue(
      toolCall("bash", { command: "mkdir other", description: "Make a folder" }),
      toolCall("create", { path: path.join(other, "package.json"), file_text: PACKAGE }),
      toolCall("bash", { command: "cd other && npm test", description: "Run the tests" }),
      text("Tested."),
    );
    expect((await runAgent(["-p", "write and run", "--yolo"], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
    expect(existsSync(path.join(other, "pwned.txt")), lastToolResult()).toBe(true);
  });
});
