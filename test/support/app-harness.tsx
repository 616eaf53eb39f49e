/**
 * The whole TUI app over the real engine, wired the way run-tui.tsx wires it (a transcript store fed by the
 * session's events, reset on a session switch), rendered with ink-testing-library and ready for input.
 */
import { afterEach } from "vitest";
import { MemoryPromptHistory } from "../../src/session/prompt-history.js";
import { App } from "../../src/ui/app/app.js";
import { transcriptFromLog } from "../../src/ui/state/history-from-log.js";
import { TranscriptStore } from "../../src/ui/state/transcript-store.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "./render-tui.js";
import type { ScriptedServerOptions } from "./scripted-server.js";
import { TestSessionHost } from "./tui-host.js";

export async function renderApp(host: TestSessionHost, options: { exit?: () => void } = {}): Promise<TuiHarness> {
  const fresh = () => initialTranscript({ mode: host.session.mode, model: host.session.model, permissionSummary: host.session.permissionSummary });
  const store = new TranscriptStore(transcriptFromLog(host.history, fresh()));
  let unsubscribe = host.session.subscribe((event) => store.push(event));
  // As run-tui.tsx does: the next session's past (and what closing the last one said), then its events.
  host.onSwitch(() => {
    unsubscribe();
    store.update(() => transcriptFromLog(host.history, fresh()));
    unsubscribe = host.session.subscribe((event) => store.push(event));
  });
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

export interface AppStartOptions {
  /** Permission flags as the command line would give them. */
  flags?: Parameters<typeof TestSessionHost.start>[0];
  server?: ScriptedServerOptions;
  exit?: () => void;
}

export interface AppHarness {
  /** Opens a host over a fresh scripted server and renders the app on it; both are closed after the test. */
  start(options?: AppStartOptions): Promise<{ host: TestSessionHost; tui: TuiHarness }>;
}

/** Registers the afterEach that unmounts the test's app and closes its host, so no test leaves a server or session open. */
export function useAppHarness(): AppHarness {
  let host: TestSessionHost | undefined;
  let tui: TuiHarness | undefined;
  afterEach(async () => {
    tui?.unmount();
    tui = undefined;
    await host?.close();
    host = undefined;
  });
  return {
    start: async (options = {}) => {
      const opened = await TestSessionHost.start(options.flags, options.server);
      host = opened;
      const rendered = await renderApp(opened, options.exit ? { exit: options.exit } : {});
      tui = rendered;
      return { host: opened, tui: rendered };
    },
  };
}
