/** Issue 7's TUI items with the real engine behind the app: the `!command` stop hint and the /model picker. */
import { afterEach, describe, expect, it } from "vitest";
import { MemoryPromptHistory } from "../../src/session/prompt-history.js";
import { App } from "../../src/ui/app/app.js";
import { TranscriptStore } from "../../src/ui/state/transcript-store.js";
import { transcriptFromLog } from "../../src/ui/state/history-from-log.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../support/render-tui.js";
import { TestSessionHost } from "../support/tui-host.js";

let host: TestSessionHost | undefined;
let tui: TuiHarness | undefined;
afterEach(async () => {
  tui?.unmount();
  tui = undefined;
  await host?.close();
  host = undefined;
});

async function startApp() {
  host = await TestSessionHost.start();
  const current = host;
  const store = new TranscriptStore(transcriptFromLog(current.history, initialTranscript({ mode: current.session.mode, model: current.session.model })));
  current.session.subscribe((event) => store.push(event));
  tui = renderTui(
    <App
      host={current}
      store={store}
      theme={plainTheme}
      history={new MemoryPromptHistory()}
      listFiles={(query) => current.listFiles(query)}
      version="test"
      exit={() => undefined}
      refreshKey={0}
      requestReprint={() => undefined}
    />,
  );
  await tui.waitForFrame((frame) => frame.includes("Ask anything"));
  return { host: current, tui };
}

describe("a running !command", () => {
  it("shows how to stop it, and Esc stops it", async () => {
    const { tui } = await startApp();
    tui.bus.type("!sleep 30");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("! sleep 30") && frame.includes("esc to interrupt"));
    tui.bus.press("escape");
    const done = await tui.waitForFrame((frame) => frame.includes("✗") || frame.includes("✓"), 10_000);
    expect(done).not.toContain("esc to interrupt");
  });
});
