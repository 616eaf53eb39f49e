/** The real bin/agent in text mode with a model and a file that carry escape sequences (issue 7, item 2). */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONTROL_LEFT } from "../support/hostile-terminal-text.js";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const HOSTILE = "\u001b[2J\u001b]2;PWNED\u0007\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\\u0007";

const ws = useE2eWorkspace({ prefix: "e2e-term", removeDirs: true });

describe("agent -p with hostile text", () => {
  it("neutralises tool traces on stderr; piped stdout gets the answer exactly as written", async () => {
    // The file's first line (shown in the trace) carries the sequences.
    writeFileSync(path.join(ws.cwd, "evil.txt"), `${HOSTILE} inside the file\n`);
    ws.server.enqueue(toolCall("view", { path: path.join(ws.cwd, "evil.txt") }), text(`Answer ${HOSTILE} end`));
    const run = await runAgent(["-p", "read evil.txt", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("inside the file");
    expect(run.stderr).not.toMatch(CONTROL_LEFT);
    expect(run.stderr).not.toContain("PWNED");
    expect(run.stdout).toBe(`Answer ${HOSTILE} end\n`);
  });
});
