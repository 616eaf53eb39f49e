/** --excluded-tools / --available-tools through the real bin/agent: the agent tools can be named, an unknown name only warns. */
import { describe, expect, it } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";

const ws = useE2eWorkspace({ prefix: "tool-flags", removeDirs: true });

const offered = (index: number) =>
  ((ws.server.completionRequests[index]?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

describe("the tool filter flags, end to end", () => {
  it("--excluded-tools task,read_agent hides them; a typo warns and the run goes on", async () => {
    ws.server.enqueue(text("Hi."));
    const run = await runAgent(["-p", "hello", "--excluded-tools", "task,read_agent", "--excluded-tools", "tsak"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hi.\n");
    expect(run.stderr).toContain("agent: warning: --excluded-tools tsak: no such tool, ignored");
    expect(offered(0)).not.toContain("task");
    expect(offered(0)).not.toContain("read_agent");
    expect(offered(0)).toContain("write_agent");
  });

  it("--available-tools with no names offers no tool (Copilot's way to switch tools off)", async () => {
    ws.server.enqueue(text("Hi."));
    const run = await runAgent(["--available-tools", "-p", "hello"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("warning");
    expect(offered(0)).toEqual([]);
  });
});
