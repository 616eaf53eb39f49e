/**
 * Where a run's prompt comes from, through the real bin/agent: `echo … | agent -p` (stdin when -p has none),
 * `-p` plus piped stdin (both, -p's first), a prompt as the only argument without a terminal (run like -p),
 * a prompt that starts with a dash, and the mistakes: -p with nothing to read, two arguments, -p with -i.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { AGENT_BIN, collect, runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";

const ws = useE2eWorkspace({ prefix: "prompt-sources", removeDirs: true });

const agent = (args: string[], input?: string) => runAgent(args, { env: ws.env(), cwd: ws.cwd, ...(input !== undefined ? { input } : {}) });
const sentPrompt = (index = 0): string => {
  const user = ws.server.completionRequests[index]?.body.messages.filter((message) => message.role === "user").at(-1);
  return String(user?.content ?? "");
};

describe("the prompt of a run", () => {
  it.each([
    ["-p with no prompt", ["-p"]],
    ["-p with no prompt, then -s", ["-p", "-s"]],
    ["-s, then -p with no prompt", ["-s", "-p"]],
    ["--prompt with no prompt", ["--prompt", "-s"]],
  ])("%s reads it from stdin: echo question | agent -p", async (_what, args) => {
    ws.server.enqueue(text("An answer."));
    const run = await agent(args, "what is in this folder?\n");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("An answer.\n");
    expect(sentPrompt()).toContain("what is in this folder?");
  });

  it("-p with a prompt and piped stdin sends both, -p's first", async () => {
    ws.server.enqueue(text("Reviewed."));
    // A shell's pipe (a FIFO): only a pipe or a file is read when -p already has a prompt, so an idle socket never blocks.
    const shell = 'printf "diff --git a/x b/x\\n+added\\n" | "$0" "$@"';
    const child = spawn("sh", ["-c", shell, process.execPath, AGENT_BIN, "-s", "-p", "Review this change"], { cwd: ws.cwd, env: ws.env() });
    const run = await collect(child);
    expect(run.code).toBe(0);
    expect(sentPrompt()).toMatch(/Review this change\n\ndiff --git a\/x b\/x\n\+added/);
  });

  it('a prompt as the only argument runs like -p when there is no terminal (agent "…" > out.md)', async () => {
    ws.server.enqueue(text("Positional."));
    const run = await agent(["-s", "summarise the README"], "");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Positional.\n");
    expect(sentPrompt()).toContain("summarise the README");
  });

  it("a prompt after -p may start with a dash", async () => {
    ws.server.enqueue(text("Dashes."));
    const run = await agent(["-p", "-x in grep means what?", "-s"]);
    expect(run.code).toBe(0);
    expect(sentPrompt()).toContain("-x in grep means what?");
  });

  it.each([
    ["-p with nothing piped", ["-p"], /-p has no prompt and nothing was piped on stdin/],
    ["two arguments", ["fix", "the bug"], /unexpected argument "the bug" \(put the whole prompt in quotes\)/],
    ["a prompt and -p", ["-p", "one", "two"], /unexpected argument "two" \(the prompt goes after -p, in quotes\)/],
    ["-p and -i", ["-p", "one", "-i", "two"], /use either -p \(run and exit\) or -i \(the TUI\), not both/],
    ["-i without a terminal", ["-i", "hello"], /the interactive mode needs a terminal/],
  ])("%s is a usage error (exit 2) before the model is called", async (_what, args, message) => {
    const run = await agent(args, "");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(ws.server.completionRequests).toHaveLength(0);
  });
});
