/**
 * Runs the interactive TUI until the person leaves: terminal modes on, input from stdin through our own
 * parser, Ink rendering in the normal screen buffer (the conversation stays in the terminal's scrollback),
 * the transcript fed from the session's events. Returns when /exit, Ctrl+D or a double Ctrl+C ends it.
 */
import { render, useStdout, type DOMElement } from "ink";
import { useLayoutEffect } from "react";
import { PassThrough } from "node:stream";
import type { AgentMode, SessionEvent } from "../protocol/events/index.js";
import type { PromptHistory } from "../session/prompt-history.js";
import { App } from "./app/app.js";
import { replaceEarlyFrameOnFirstWrite, type EarlyFrame } from "./first-frame.js";
import { preloadHighlighter } from "./markdown/highlight.js";
import { preloadMarkdown, warmMarkdown } from "./markdown/render-markdown.js";
import { loadDisplayWidths } from "./markdown/wrap.js";
import { lastExchangeStart, previewOfTail, renderPast } from "./print-past.js";
import type { SessionHost } from "./session-host.js";
import { transcriptFromLog } from "./state/history-from-log.js";
import { PAINTS_PER_SECOND, TranscriptStore } from "./state/transcript-store.js";
import { initialTranscript } from "./state/transcript-types.js";
import { InputBus } from "./terminal/input-bus.js";
import { InputContext } from "./terminal/input-context.js";
import { paintInputFirst, type InputPaint } from "./terminal/paint-input-first.js";
import { buildInkRowsOnce } from "./terminal/ink-output-rows.js";
import { TerminalModes } from "./terminal/terminal-modes.js";
import type { Theme } from "./theme.js";

const CLEAR_SCREEN_AND_SCROLLBACK = "\u001b[2J\u001b[3J\u001b[H";

export interface TuiOptions {
  host: SessionHost & { listFiles(query: string): Promise<string[]> };
  /** A resumed session's last events, read cheaply (the log's tail) to show its last exchange before it opens. */
  resumeTail?(): Promise<SessionEvent[]>;
  /** Opens the first session; called right after the first frame, so the TUI appears before the engine loads. */
  openSession(): Promise<void>;
  /** What the footer shows until the session is open. */
  initial: { mode: AgentMode; model: string };
  theme: Theme;
  history: PromptHistory;
  version: string;
  /** Sent as if typed once the session is open (`agent "…"`, `agent -i "…"`). */
  firstPrompt?: string;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  /** The idle prompt drawn before Ink loaded (first-frame.ts): Ink's first paint replaces it. */
  earlyFrame?: EarlyFrame;
}

function transcriptOf(host: SessionHost) {
  const { state } = host.session;
  const initial = initialTranscript({
    mode: state.mode,
    model: state.model,
    agentName: state.selectedAgent?.name,
    permissionSummary: state.permissions.summary,
  });
  return transcriptFromLog(host.history, initial);
}

/** Hands Ink's own stdout writer (which keeps the live area below what is written) to the runner. */
function StdoutHandle({ expose }: { expose(write: (data: string) => void): void }) {
  const { write } = useStdout();
  useLayoutEffect(() => expose(write), [write, expose]);
  return null;
}

export interface TuiResult {
  signal?: NodeJS.Signals;
  /** The session could not be opened. */
  error?: Error;
}

export async function runTui(options: TuiOptions): Promise<TuiResult> {
  // Ink has loaded string-width already: this only hands it to wrap.ts, before anything is measured.
  await loadDisplayWidths();
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const { host } = options;
  const early = options.earlyFrame;
  const store = new TranscriptStore({
    ...initialTranscript(options.initial),
    starting: true,
    ...(early?.preview !== undefined ? { preview: early.preview } : {}),
  });
  const bus = new InputBus();
  const terminal = options.earlyFrame?.terminal ?? new TerminalModes({ stdin, stdout });

  let unsubscribe: () => void = () => undefined;
  let refreshKey = 0;
  let writeOut: (data: string) => void = (data) => void stdout.write(data);
  const exposeWrite = (write: (data: string) => void) => (writeOut = write);
  let finish: (result: TuiResult) => void = () => undefined;
  const finished = new Promise<TuiResult>((resolve) => (finish = resolve));

  // Ink gets a stdin of its own that never produces input: ours is read by the InputBus.
  const inkStdin = new PassThrough() as unknown as NodeJS.ReadStream;
  // A key's echo is painted at once, not a frame later behind the agents' progress (paint-input-first.ts).
  let inputPaint: InputPaint | undefined;
  const appBox = (node: DOMElement | null) => {
    if (node && !inputPaint) inputPaint = paintInputFirst(node);
  };
  const stopObserving = bus.observe(() => inputPaint?.input());
  const view = () => (
    <InputContext.Provider value={bus}>
      <App
        host={host}
        store={store}
        theme={options.theme}
        history={options.history}
        listFiles={(query) => host.listFiles(query)}
        version={options.version}
        exit={() => finish({})}
        refreshKey={refreshKey}
        requestReprint={() => reprint()}
        onMounted={releaseTypeahead}
        editFile={editFile}
        boxRef={appBox}
        {...(options.firstPrompt !== undefined ? { firstPrompt: options.firstPrompt } : {})}
      />
      <StdoutHandle expose={exposeWrite} />
    </InputContext.Provider>
  );

  // ↑ brings the first prompt back like one typed.
  if (options.firstPrompt !== undefined) options.history.add(options.firstPrompt);
  terminal.enter();
  terminal.installExitHandlers((signal) => finish({ signal }));
  // Keys typed before the composer listens wait for it (released when the app has mounted).
  const releaseTypeahead = bus.hold(5000);
  let detach = bus.attach(stdin);
  if (options.earlyFrame) replaceEarlyFrameOnFirstWrite(stdout, options.earlyFrame);
  // Rows that did not change since an earlier frame are not built again (ink-output-rows.ts).
  buildInkRowsOnce();
  const instance = render(view(), { stdout, stdin: inkStdin, exitOnCtrlC: false, patchConsole: false, maxFps: PAINTS_PER_SECOND });

  /**
   * /memory edit: the person's editor ($VISUAL, $EDITOR, else vi) gets the terminal. Our modes go off and our
   * reading of stdin stops while it runs (the engine waits too: it runs synchronously, as git runs an editor),
   * then both come back and the screen is drawn again.
   */
  async function editFile(file: string): Promise<string | undefined> {
    const editor = process.env.VISUAL?.trim() || process.env.EDITOR?.trim() || "vi";
    instance.clear();
    detach();
    terminal.restore();
    const { spawnSync } = await import("node:child_process");
    const ran = spawnSync("/bin/sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit" });
    terminal.enter();
    detach = bus.attach(stdin);
    reprint();
    if (ran.error) return `Could not start the editor (${editor}): ${ran.error.message}`;
    return ran.status === 0 ? undefined : `The editor (${editor}) exited with ${ran.status ?? ran.signal}; ${file} is as it left it.`;
  }

  /** Reprints the whole history: after a resize the terminal's reflow would leave broken bands. */
  const reprint = () => {
    stdout.write(CLEAR_SCREEN_AND_SCROLLBACK);
    refreshKey++;
    instance.rerender(view());
  };
  let resizeTimer: NodeJS.Timeout | undefined;
  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(reprint, 80);
  };
  stdout.on("resize", onResize);

  const offSwitch = host.onSwitch(() => {
    unsubscribe();
    store.update(() => transcriptOf(host));
    unsubscribe = host.session.subscribe((event: SessionEvent) => store.push(event));
    reprint();
  });

  const width = () => Math.max(20, stdout.columns || 80);
  /** The last exchange of a resumed session, from the log's tail, while the engine loads and reads the rest. */
  let opened = false;
  const showPreview = (tail: readonly SessionEvent[]) => {
    if (opened) return;
    const preview = previewOfTail(tail, options.initial, width(), stdout.rows || 24, options.theme);
    if (preview !== undefined) store.update((current) => ({ ...current, preview }));
  };

  // The engine loads after the first frame; then the session's events (and a resumed session's past) arrive.
  setImmediate(() => {
    const markdown = preloadMarkdown();
    // The preview first: loading the engine's modules meanwhile would hold it back by their compile time.
    // A preview that fails is only a missing preview: the session reports its own errors.
    const previewed =
      options.resumeTail && early?.preview === undefined
        ? Promise.all([options.resumeTail(), markdown])
            .then(([tail]) => showPreview(tail))
            .catch(() => undefined)
        : Promise.resolve();
    previewed
      .then(() => options.openSession())
      .then(() => markdown)
      .then(async () => {
        // Events of a prompt sent while the past is being printed wait for it, so they come after it.
        let pending: SessionEvent[] | undefined = [];
        unsubscribe = host.session.subscribe((event: SessionEvent) => (pending ? pending.push(event) : store.push(event)));
        const transcript = transcriptOf(host);
        // The past up to the last exchange is written straight to the terminal (print-past.ts); the last
        // exchange goes through <Static> in the same update that removes the preview, so nothing flickers.
        const key = refreshKey;
        const older = lastExchangeStart(transcript.items);
        const text = older > 0 ? await renderPast(transcript.items.slice(0, older), width(), options.theme) : "";
        // A reprint meanwhile (resize) prints everything through Static: then this text is not needed.
        const printed = key === refreshKey && older > 0;
        if (printed) writeOut(text);
        // A mode chosen with Shift+Tab while the session was opening applies now.
        const chosenMode = store.getState().mode;
        opened = true;
        if (chosenMode !== host.session.state.mode) host.session.dispatch({ type: "set_mode", mode: chosenMode });
        store.update(() => ({ ...transcript, mode: host.session.state.mode, ...(printed ? { printedOutside: { refreshKey: key, count: older } } : {}) }));
        for (const event of pending) store.push(event);
        pending = undefined;
        // Highlighting code costs ~50 ms to load: after everything else, and marked's first lexing apart.
        setTimeout(() => {
          warmMarkdown(options.theme);
          setTimeout(() => void preloadHighlighter().catch(() => undefined), 0);
        }, 0);
      })
      .catch((error: unknown) => finish({ error: error instanceof Error ? error : new Error(String(error)) }));
  });

  const result = await finished;
  clearTimeout(resizeTimer);
  stdout.off("resize", onResize);
  offSwitch();
  unsubscribe();
  store.dispose();
  stopObserving();
  inputPaint?.restore();
  instance.clear(); // the composer and footer go; the conversation stays in the scrollback
  instance.unmount();
  detach();
  terminal.restore();
  terminal.removeExitHandlers();
  return result;
}
