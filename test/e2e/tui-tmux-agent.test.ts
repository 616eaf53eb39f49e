/**
 * `--agent` and `/agent` in the real TUI (tmux): the footer names the agent, a bad agent file is shown, and
 * the model is sent the agent's prompt and tools only.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { text } from "../support/scripted-server.js";
import { HAS_TMUX } from "../support/tmux.js";
import { AGENT_COMMAND as AGENT, idle, useTmuxAgent } from "../support/tmux-agent.js";

/** The footer: what follows the composer's hint line (it may wrap onto a second line when the cwd is long). */
const footer = (screen: string): string => {
  const lines = screen.split("\n");
  const hint = lines.findLastIndex((line) => line.startsWith("Enter send"));
  return lines
    .slice(hint + 1)
    .filter((line) => line.trim() !== "")
    .join(" ");
};

const tt = useTmuxAgent({ prefix: "tui-agent" });

describe.skipIf(!HAS_TMUX)("custom agents in the TUI (tmux)", () => {
  beforeEach(async () => {
    mkdirSync(path.join(tt.home, "agents"));
    writeFileSync(path.join(tt.home, "agents", "reader.agent.md"), "---\ndescription: Reads\ntools: [read]\n---\nREADER PROMPT\n");
    writeFileSync(path.join(tt.home, "agents", "broken.agent.md"), "---\ndescription: d\ntools: 3\n---\nx\n");
  });

  it(
    "--agent shows in the footer with the bad file's warning, the model gets its prompt and tools; /agent none goes back, /agent picks",
    { timeout: 60_000 },
    async () => {
      const pane = await tt.open(`${AGENT} --agent reader`);
      const first = await pane.waitFor((s) => idle(s) && s.includes("agent: reader"), { timeoutMs: 20_000, what: "the footer naming the agent" });
      expect(first).toContain('broken.agent.md: field "tools"');

      tt.server.enqueue(text("READER ANSWER"));
      await pane.type("hello");
      await pane.waitForText("hello");
      await pane.sendKeys("Enter");
      await pane.waitFor((s) => s.includes("READER ANSWER") && idle(s), { timeoutMs: 20_000, what: "the answer" });
      const body = tt.server.completionRequests[0]?.body as { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
      expect(String(body.messages[0]?.content)).toContain("READER PROMPT");
      expect((body.tools ?? []).map((tool) => tool.function.name)).toEqual(["view"]);

      await pane.type("/agent none");
      await pane.waitForText("/agent none");
      await pane.sendKeys("Enter");
      const none = await pane.waitFor((s) => s.includes("Back to the default agent.") && idle(s), { timeoutMs: 10_000, what: "the deselection" });
      expect(footer(none)).not.toContain("agent:");

      // Without a name, a picker: filter to the agent, Enter selects it.
      await pane.type("/agent");
      await pane.waitForText("/agent");
      await pane.sendKeys("Enter");
      await pane.waitForText("Run this session as an agent", { timeoutMs: 10_000 });
      await pane.type("read");
      await pane.waitForText("Filter: read");
      await pane.sendKeys("Enter");
      const picked = await pane.waitFor((s) => idle(s) && footer(s).includes("agent: reader"), {
        timeoutMs: 10_000,
        what: "the footer naming the picked agent",
      });
      expect(picked).not.toContain("Run this session as an agent");
    },
  );
});
