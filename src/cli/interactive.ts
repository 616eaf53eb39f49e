/**
 * `agent` without -p: the interactive TUI. Configuration problems are reported before the terminal is
 * touched; the TUI itself is loaded only here (the headless path never loads ink or react).
 */
import { trustFolder } from "../config/folder-trust.js";
import type { HookSet } from "../hooks/hook-set.js";
import { FilePromptHistory } from "../session/prompt-history.js";
import type { AgentMode } from "../protocol/events/index.js";
import type { EarlyFrame } from "../ui/first-frame.js";
import { TerminalModes } from "../ui/terminal/terminal-modes.js";
import type { Theme } from "../ui/theme.js";
import { anyHooksConfigured } from "./hook-files-present.js";
import { heldBackPrograms } from "./repository-programs.js";
import { SessionLockedError } from "../session/session-lock.js";
import { openableSession } from "../core/index.js";
import { bootstrap, homesOf, type Bootstrap } from "./bootstrap.js";
import type { CliOptions } from "./cli-options.js";
import { ExitCode } from "./exit-codes.js";
import { TuiSessionHost } from "./tui-session-host.js";

declare const AGENT_VERSION: string;

/** How long after the session opens the TUI warms what the first answer needs: after the first paints. */
const IDLE_WARM_MS = 50;

/**
 * Ink's layout engine (yoga) loads its WebAssembly through `fetch` when one exists, which in Node 20 pulls in
 * the whole undici stack (~15 ms) just to decode an inlined blob. Without `fetch` it decodes it directly.
 * The property is put back exactly as it was (a lazy getter), without ever being read.
 */
async function withoutGlobalFetch<T>(load: () => Promise<T>): Promise<T> {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "fetch");
  if (!descriptor?.configurable) return load();
  Object.defineProperty(globalThis, "fetch", { value: undefined, configurable: true, writable: true });
  try {
    return await load();
  } finally {
    Object.defineProperty(globalThis, "fetch", descriptor);
  }
}

/**
 * Ink decides once, when it loads, whether it runs in CI (CI, CONTINUOUS_INTEGRATION or CI_* variables set)
 * and then draws only the last frame. The TUI only runs on a terminal, so a person is there whatever the
 * environment says: Ink loads with CI=0, and the variable is put back as it was.
 */
async function asInteractive<T>(load: () => Promise<T>): Promise<T> {
  const saved = process.env.CI;
  process.env.CI = "0";
  try {
    return await load();
  } finally {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  }
}

/**
 * Folder trust for the TUI's sessions. When the repository here brings programs that folder trust holds back
 * (hooks, MCP servers, agent files' servers), the person is asked first, once, naming the folder and what
 * would run: trust it this time (for every session of this TUI), always (remembered in config.json), or not
 * (the user's own hooks and servers still run). The hooks load when the first session opens (after the first frame).
 */
async function settleTrust(
  boot: Bootstrap,
  options: CliOptions,
  theme: Theme,
): Promise<{ loadHooks: () => Promise<HookSet | undefined>; trustedThisSession: string[] }> {
  const { settings } = boot;
  const enabled = options.hooks && settings.disableAllHooks !== true;
  const trustedThisSession: string[] = [];
  const loadHooks = async () => {
    if (!enabled || !anyHooksConfigured(boot, options.cwd, settings, options.pluginDirs)) return undefined;
    const { hookConfig } = await import("./session-hook-config.js");
    const hooks = hookConfig({
      ...homesOf(boot),
      trustedThisSession,
      cwd: options.cwd,
      settings,
      enabled,
      ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
    });
    return hooks.load(hooks.trusted);
  };
  const held = heldBackPrograms(homesOf(boot), options.cwd, { hooks: enabled });
  if (held) {
    const { askFolderTrust } = await import("../ui/ask-folder-trust.js");
    const answer = await askFolderTrust({ folder: held.folder, commands: await held.commands(), theme });
    if (answer === "always") trustFolder(boot.agentHome, held.folder);
    if (answer === "once") trustedThisSession.push(held.folder);
  }
  return { loadHooks, trustedThisSession };
}

/**
 * The idle prompt, written before Ink loads (src/ui/first-frame.ts): the person sees the TUI while Ink, React
 * and the app load, and a resumed session's last exchange (from the log's tail) with it. Not with a first
 * prompt (the frame would differ) nor when the frame would not fit.
 */
async function drawEarlyFrame(options: CliOptions, model: string, theme: Theme, resumeLog: string | undefined): Promise<EarlyFrame | undefined> {
  if (options.firstPrompt) return undefined;
  const columns = process.stdout.columns || 80;
  const rows = process.stdout.rows || 24;
  const mode = options.mode ?? "interactive";
  const [{ earlyFrame }, preview] = await Promise.all([
    import("../ui/first-frame.js"),
    resumeLog ? resumePreview(resumeLog, { mode, model }, columns, rows, theme) : undefined,
  ]);
  const frame = earlyFrame({ version: AGENT_VERSION, model, mode, cwd: options.cwd, columns, rows, theme, ...(preview ? { preview } : {}) });
  if (!frame) return undefined;
  // The modes first (bracketed paste…), as the TUI will have them: keys stay unread until it reads them.
  const terminal = new TerminalModes({ stdin: process.stdin, stdout: process.stdout });
  process.once("exit", terminal.restore);
  terminal.announce();
  process.stdout.write(frame.text);
  return { ...frame, terminal };
}

/** A resumed session's last exchange from its log's tail; none when it cannot be read (the session reports its own errors). */
async function resumePreview(
  log: string,
  initial: { mode: AgentMode; model: string },
  columns: number,
  rows: number,
  theme: Theme,
): Promise<string | undefined> {
  try {
    const [{ readEventLogTailWith }, { earlyPreviewOfTail, isPromptOfThePerson }] = await Promise.all([
      import("../session/event-log-tail.js"),
      import("../ui/print-past.js"),
    ]);
    // string-width and marked only if the exchange needs them (print-past.ts's earlyPreviewOfTail).
    return await earlyPreviewOfTail(readEventLogTailWith(log, isPromptOfThePerson), initial, Math.max(20, columns), rows, theme);
  } catch {
    return undefined;
  }
}

export async function runInteractive(options: CliOptions): Promise<number> {
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    process.stderr.write('agent: the interactive mode needs a terminal. Run a prompt without one with: agent -p "…"\n');
    return ExitCode.usage;
  }
  const boot = await bootstrap(options);
  if (!boot.ok) {
    process.stderr.write(`agent: ${boot.message}\n`);
    return ExitCode.config;
  }
  // chalk decides its colour level once, when it loads, and reads any CI variable as "no colour": it loads
  // here, with the environment as it is, before Ink (and the chalk it shares) loads under CI=0.
  const [{ createTheme }] = await Promise.all([import("../ui/theme.js"), import("chalk")]);
  const theme = createTheme();
  let resumeId = boot.value.resumeId;
  if (options.resume === true) {
    const { pickSession } = await import("../ui/pick-session.js");
    resumeId = await pickSession({ sessions: await boot.value.store.conversations(), cwd: options.cwd, theme });
    if (!resumeId) return ExitCode.ok;
  }
  // One writer per session: a session open in another agent process is refused before the terminal is
  // touched (--continue starts a new one instead). Opening checks again, under the lock itself.
  try {
    const openable = openableSession(boot.value.store, resumeId, options.continue ? "new-session" : "fail");
    if (openable.note) process.stderr.write(`agent: ${openable.note}\n`);
    resumeId = openable.resumeId;
  } catch (error) {
    if (!(error instanceof SessionLockedError)) throw error;
    process.stderr.write(`agent: ${error.message}\n`);
    return ExitCode.sessionInUse;
  }
  const trust = await settleTrust(boot.value, options, theme);
  const early = await drawEarlyFrame(options, boot.value.providerConfig.model, theme, resumeId ? boot.value.store.eventsFileOf(resumeId) : undefined);
  const ui = await asInteractive(() => withoutGlobalFetch(() => import("../ui/run-tui.js")));
  const host = new TuiSessionHost(boot.value, options, trust.loadHooks, trust.trustedThisSession);
  const result = await ui.runTui({
    host,
    ...(early ? { earlyFrame: early } : {}),
    // Once open, in an idle moment: what the first answer loads (node-fetch.ts), so it does not hold the keyboard then.
    openSession: () =>
      host.open(resumeId).then(() => {
        setTimeout(() => void import("../provider/node-fetch.js").then(({ warmResponses }) => warmResponses()).catch(() => undefined), IDLE_WARM_MS).unref();
      }),
    ...(resumeId
      ? { resumeTail: async () => (await import("../session/event-log-tail.js")).readEventLogTail(boot.value.store.eventsFileOf(resumeId as string)) }
      : {}),
    initial: { mode: options.mode ?? "interactive", model: boot.value.providerConfig.model },
    theme,
    history: new FilePromptHistory(boot.value.agentHome),
    version: AGENT_VERSION,
    ...(options.firstPrompt ? { firstPrompt: options.firstPrompt.text } : {}),
  });
  if (result.error) {
    process.stderr.write(`agent: could not open the session: ${result.error.message}\n`);
    return result.error instanceof SessionLockedError ? ExitCode.sessionInUse : ExitCode.config;
  }
  // A session left without a single prompt, or whose prompts never got an answer (a bad key, an unknown
  // model), is not worth resuming.
  const id = host.resumable ? host.session.id : undefined;
  // Background agents still at work are stopped with the session: say which (the TUI is gone by now).
  for (const message of host.shutdown()) process.stderr.write(`agent: ${message}\n`);
  if (id) process.stdout.write(`\nResume this session with: agent --resume ${id}\n`);
  if (result.signal === "SIGTERM") return ExitCode.terminated;
  if (result.signal === "SIGINT") return ExitCode.interrupted;
  if (result.signal === "SIGHUP") return 129;
  return ExitCode.ok;
}
