/** The TUI shows the custom agent the session runs as: the transcript state follows the events, the footer names it. */
import { homedir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { Footer, type FooterProps } from "../../src/ui/components/footer.js";
import { reduceTranscript } from "../../src/ui/state/reduce-transcript.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../support/render-tui.js";

const event = (type: string, data: Record<string, unknown>): SessionEvent =>
  ({ type, data, id: `${type}-id`, timestamp: new Date(0).toISOString(), parentId: null, ephemeral: false }) as unknown as SessionEvent;

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

describe("the selected agent in the TUI", () => {
  it("follows subagent.selected and subagent.deselected, and starts from the session's own", () => {
    const start = initialTranscript({ mode: "interactive", model: "m", agentName: "reader" });
    expect(start.agentName).toBe("reader");
    const selected = reduceTranscript(start, event("subagent.selected", { agentName: "writer", agentDisplayName: "Writer", tools: null }), 0);
    expect(selected.agentName).toBe("writer");
    expect(reduceTranscript(selected, event("subagent.deselected", {}), 0).agentName).toBeUndefined();
  });

  it("is named in the footer after the usage", async () => {
    const props: FooterProps = {
      mode: "interactive",
      model: "gpt-5",
      agent: "reader",
      permissionMode: "Manual Approval",
      usage: { currentTokens: 15_000, tokenLimit: 128_000 },
      cwd: path.join(homedir(), "src", "proj"),
      backgroundCount: 0,
      theme: plainTheme,
      width: 120,
    };
    tui = renderTui(<Footer {...props} />);
    await tui.flush();
    expect(tui.frame()).toBe("Interactive · Manual Approval · gpt-5 · 12% (15k/128k) · agent: reader · ~/src/proj");
  });
});
