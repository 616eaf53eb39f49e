/**
 * Commands the documentation tells a new user to run: none may be `npx agent` (npx would fetch an unrelated
 * package of that name from the registry; the main README warns against it), and the example AGENT_HOME's
 * own instructions work as written (its settings load, a prompt runs).
 */
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { agentEnv, runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";

const ROOT = path.resolve(".");
const SKIP = new Set(["node_modules", "dist", ".git", "coverage"]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return markdownFiles(full);
    return name.endsWith(".md") ? [full] : [];
  });
}

const ws = useE2eWorkspace({ prefix: "documented", removeDirs: true });

describe("the documented commands", () => {
  it("never suggest `npx agent` (only the warning against it names it)", () => {
    const files = markdownFiles(ROOT).filter((file) => !file.includes(`${path.sep}test${path.sep}`));
    expect(files).toContain(path.join(ROOT, ".copilot-example", "README.md"));
    const suggestions = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .map((line, index) => ({ where: `${path.relative(ROOT, file)}:${index + 1}`, line }))
        // A line that names it only to warn against it is fine: "Do not use `npx agent`", "`npx agent` would fetch…".
        .filter(({ line }) => /\bnpx\s+agent\b/.test(line) && !/\b(do not|don't|never|would fetch|would offer)\b/i.test(line)),
    );
    expect(suggestions).toEqual([]);
  });

  it("the example AGENT_HOME works as its README says: copied, then `AGENT_HOME=<copy> agent -p hello`", async () => {
    const copy = path.join(tempDir("documented-example-"), "agent-home");
    cpSync(path.join(ROOT, ".copilot-example"), copy, { recursive: true });
    const readme = readFileSync(path.join(copy, "README.md"), "utf8");
    expect(readme).toMatch(/^AGENT_HOME=\/tmp\/agent-home agent -p "hello"$/m);
    ws.server.enqueue(text("Hello from the example."));
    // The example's provider is a local Ollama: the environment points it at the scripted server instead.
    const env = agentEnv({ home: copy, baseUrl: ws.server.baseUrl });
    const run = await runAgent(["-p", "hello"], { env, cwd: ws.cwd });
    expect(run.stderr).not.toContain("settings.json");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello from the example.\n");
    // Its instructions file reached the system prompt.
    const system = String(ws.server.completionRequests[0]?.body.messages[0]?.content ?? "");
    expect(system).toContain(readFileSync(path.join(copy, "copilot-instructions.md"), "utf8").trim().split("\n")[0]);
  });
});
