/**
 * The whole TUI app over the real engine, wired the way run-tui.tsx wires it (a transcript store fed by the
 * session's events, reset on a session switch), rendered with ink-testing-library and ready for input.
 */
import { MemoryPromptHistory } from "../../src/session/prompt-history.js";
import { App } from "../../src/ui/app/app.js";
import { transcriptFromLog } from "../../src/ui/state/history-from-log.js";
import { TranscriptStore } from "../../src/ui/state/transcript-store.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "./render-tui.js";
import type { TestSessionHost } from "./tui-host.js";

export async function renderApp(host: TestSessionHost, options: { exit?: () => void } = {}): Promise<TuiHarness> {
  const fresh = () => initialTranscript({ mode: host.session.mode, model: host.session.model, permissionSummary: host.session.permissionSummary });
  const store = new TranscriptStore(transcriptFromLog(host.history, fresh()));
  host.session.subscribe((event) => store.push(event));
  host.onSwitch(() => store.update(fresh));
  const tui = renderTui(
    <App
      host={host}
      store={store}
      theme={plainTheme}
      history={new MemoryPromptHistory()}
      listFiles={(query) => host.listFiles(query)}
      version="test"
      exit={options.exit ?? (() => undefined)}
      refreshKey={0}
      requestReprint={() => undefined}
    />,
  );
  await tui.waitForFrame((frame) => frame.includes("Ask anything"));
  return tui;
}
