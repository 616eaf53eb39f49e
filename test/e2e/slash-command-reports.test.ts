/**
 * Every slash command as the prompt of `agent -p`, through the real binary: a command's report is what the
 * run was for, so it goes to stdout, with --silent too (-s drops the stats, not the answer); a refusal is a
 * warning on stderr; a command that cannot work without a screen, or does not exist, exits 2. None calls the
 * model.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { slashCommands } from "../../src/core/slash-commands/registry.js";
import { runAgent } from "../support/run-agent.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace({ prefix: "reports", removeDirs: true });

const agent = (...args: string[]) => runAgent(args, { env: ws.env(), cwd: ws.cwd });

interface Row {
  line: string;
  /** What stdout holds with -s. */
  stdout: RegExp;
  code?: number;
  /** What stderr holds (a refusal's warning). */
  stderr?: RegExp;
}

/** One row per command that answers without the model (the ones that send a prompt are tested with their features). */
const rows: Row[] = [
  { line: "/add-dir", stdout: /^$/, code: 2, stderr: /Usage: \/add-dir <dir>/ },
  { line: "/add-dir .", stdout: /^$/, code: 2, stderr: /is already allowed/ },
  // Outside the working directory and the temp directory (both allowed already).
  { line: "/add-dir /usr", stdout: /^Added \/usr to the allowed directories\.\n$/ },
  { line: "/agent", stdout: /Built-in agents:\n[\s\S]*explore \(builtin\)/ },
  { line: "/agent explore", stdout: /^Running as the explore agent/ },
  { line: "/allow-all show", stdout: /^Allow all is off/ },
  { line: "/allow-all on", stdout: /^Allow all is on/ },
  { line: "/autopilot on", stdout: /^Autopilot on/ },
  { line: "/clear", stdout: /^$/ },
  { line: "/compact", stdout: /^$/, stderr: /Nothing was compacted/ },
  { line: "/context", stdout: /^Context: [\d.]+k?\/128k tokens[\s\S]*\n {2}Free /m },
  { line: "/copy", stdout: /^$/, stderr: /There is no answer to copy yet/ },
  { line: "/cwd", stdout: /^Working directory: \// },
  { line: "/diff", stdout: /^$/, stderr: /is not in a git repository/ },
  { line: "/env", stdout: /^Working directory: [\s\S]*\nAgents:\n[\s\S]*MCP servers:/ },
  { line: "/exit", stdout: /^$/ },
  { line: "/help", stdout: /^Commands:\n[\s\S]* {2}\/usage +Show requests[\s\S]*\nInstruction files:\n {2}none loaded\n$/ },
  { line: "/hooks", stdout: /^No hooks are loaded\./ },
  { line: "/instructions", stdout: /^No custom instruction files are loaded\./ },
  { line: "/list-dirs", stdout: /^Allowed directories:\n[\s\S]*working directory/ },
  { line: "/mcp", stdout: /^No MCP servers are configured\./ },
  { line: "/model", stdout: /^Model: scripted-model\. The endpoint offers: scripted-model\./ },
  { line: "/model scripted-model", stdout: /^Model set to scripted-model\.\n$/ },
  { line: "/model nope", stdout: /^$/, code: 2, stderr: /Unknown model "nope"/ },
  { line: "/new", stdout: /^$/ },
  { line: "/plan", stdout: /^Plan mode: / },
  { line: "/rename", stdout: /^$/, code: 2, stderr: /Nothing to name the session after yet/ },
  { line: "/rename Report run", stdout: /^Session renamed to "Report run"\.\n$/ },
  { line: "/research", stdout: /^$/, code: 2, stderr: /Usage: \/research <topic>/ },
  { line: "/reset-allowed-tools", stdout: /^This session's approvals are forgotten/ },
  { line: "/resume", stdout: /^$/, code: 2, stderr: /\/resume needs the interactive UI/ },
  { line: "/review", stdout: /^Nothing to review: .* is not inside a git repository\.\n$/ },
  { line: "/rewind", stdout: /^Nothing to rewind to yet: no prompt was sent in this session\.\n$/ },
  { line: "/rewind 1", stdout: /^$/, code: 2, stderr: /There is no point 1 to go back to/ },
  { line: "/fork", stdout: /^$/, stderr: /^Forked session [0-9a-f-]{36} into [0-9a-f-]{36}\. Go on there with: agent --resume [0-9a-f-]{36}\n/ },
  { line: "/session", stdout: /^Session +[0-9a-f-]{36}\n/ },
  { line: "/session files", stdout: /\S/ },
  { line: "/session plan", stdout: /^This session has no plan yet/ },
  { line: "/session checkpoints", stdout: /\S/ },
  { line: "/share", stdout: /^$/, stderr: /Nothing to share yet/ },
  { line: "/tasks", stdout: /^No background agents or shells\.\n$/ },
  { line: "/usage", stdout: /^Usage in this session:\n {2}Session time[\s\S]*Code changes +\+0 -0/ },
  { line: "/fleet", stdout: /^$/, code: 2, stderr: /Usage: \/fleet <task>/ },
  { line: "/memory", stdout: /^Memory is off in this session[\s\S]*The board a new session would get: empty\./ },
  { line: "/memory nope", stdout: /^$/, code: 2, stderr: /Usage: \/memory \[show\|on\|off/ },
  { line: "/subconscious", stdout: /^$/, code: 2, stderr: /Usage: \/subconscious run/ },
  { line: "/nope", stdout: /^$/, code: 2, stderr: /Unknown command: \/nope/ },
];

describe("agent -p -s /<command>: the report on stdout", () => {
  it("the table has a row for every command", () => {
    const covered = new Set(rows.map((row) => /^\/(\S+)/.exec(row.line)?.[1]));
    // /init sends a prompt to the model (tested with the orchestrating commands).
    const missing = slashCommands.map((command) => command.name).filter((name) => name !== "init" && !covered.has(name));
    expect(missing).toEqual([]);
  });

  it.each(rows)("$line", async ({ line, stdout, code = 0, stderr }) => {
    const run = await agent("-s", "-p", line);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code, stdout: expect.stringMatching(stdout) });
    if (stderr) expect(run.stderr).toMatch(stderr);
    else expect(run.stderr).toBe("");
    expect(ws.server.completionRequests).toHaveLength(0);
  });
});

describe("a command's report without -s, and as JSON", () => {
  it.each(["/context", "/usage", "/env", "/help"])("%s: the report on stdout, the stats on stderr", async (line) => {
    const silent = await agent("-s", "-p", line);
    const run = await agent("-p", line);
    expect(run.code).toBe(0);
    // The same report (the session time in /usage differs run to run).
    expect(run.stdout.split("\n")[0]).toBe(silent.stdout.split("\n")[0]);
    expect(run.stdout.split("\n").length).toBe(silent.stdout.split("\n").length);
    expect(run.stderr).toMatch(/^\nChanges +\+0 -0\n/);
  });

  it.each(["/context", "/usage"])("%s: the result line's answer is the report (with -s, only that line)", async (line) => {
    for (const args of [
      ["--output-format", "json"],
      ["--output-format", "json", "-s"],
    ]) {
      const run = await agent(...args, "-p", line);
      expect(run.code).toBe(0);
      const lines = run.stdout.trim().split("\n");
      if (args.includes("-s")) expect(lines).toHaveLength(1);
      const result = JSON.parse(lines.at(-1) as string) as { type: string; answer: string };
      expect(result.type).toBe("result");
      expect(result.answer).toMatch(line === "/context" ? /^Context: / : /^Usage in this session:/);
    }
  });
});

describe("what a -p run of a command leaves behind", () => {
  const sessions = () => (existsSync(path.join(ws.home, "session-state")) ? readdirSync(path.join(ws.home, "session-state")) : []);

  it.each(["/usage", "/context", "/help", "/nope", "/resume", "/allow-all on", "/session info"])(
    "%s never reached the model and changed nothing: no session is left, and no resume hint",
    async (line) => {
      const run = await agent("-p", line);
      expect(sessions()).toEqual([]);
      expect(run.stderr).not.toContain("agent --resume");
    },
  );

  it.each(["/plan", "/rename Kept run", "/agent explore"])("%s changed the session: it is kept and can be resumed", async (line) => {
    const run = await agent("-p", line);
    expect(run.code).toBe(0);
    const [id] = sessions();
    expect(id).toBeDefined();
    expect(run.stderr).toContain(`agent --resume ${id}`);
  });

  it("a resumed session stays, whatever the command", async () => {
    expect((await agent("-p", "/plan")).code).toBe(0);
    const [id] = sessions();
    const run = await agent("--resume", id as string, "-p", "/nope");
    expect(run.code).toBe(2);
    expect(sessions()).toEqual([id]);
  });
});
