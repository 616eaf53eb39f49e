/**
 * The interactive app: finished history in <Static> (printed once, kept in the terminal's own scrollback),
 * then the live area, a dialog when one is open, the queue, the composer and the footer. It renders the
 * transcript store and sends commands to the session; the engine does the rest.
 */
import { Box, Text, useStdout, type DOMElement } from "ink";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type Ref } from "react";
import { loadSlashCommands, permissionModeLabel } from "../../core/index.js";
import type { PromptHistory } from "../../session/prompt-history.js";
import { BackgroundStatus } from "../components/background-status.js";
import { Composer } from "../components/composer/composer.js";
import { QueuedPrompts } from "../components/composer/queued-prompts.js";
import { FitBox } from "../components/fit-box.js";
import { Footer } from "../components/footer.js";
import { GoalLine } from "../components/goal-line.js";
import { InteractionDialog } from "../components/interaction-dialog.js";
import { PermissionDialog } from "../components/permission-dialog.js";
import { TodoPanel } from "../components/todo-panel.js";
import type { SessionHost } from "../session-host.js";
import type { TranscriptStore } from "../state/transcript-store.js";
import { osc52 } from "../terminal/clipboard.js";
import { useInputBus } from "../terminal/input-context.js";
import type { Theme } from "../theme.js";
import { AppDialog } from "./app-dialog.js";
import { LiveArea } from "./live-area.js";
import { TranscriptStatic, type StaticEntry } from "./transcript-static.js";
import { useAppKeys } from "./use-app-keys.js";
import { useSubmit, type DialogName } from "./use-submit.js";
import { useTodos } from "./use-todos.js";
import { useSkillCommands } from "./use-skill-commands.js";
import { STARTING_HINT } from "../first-frame.js";

// The commands (completion, /help) come with the app, as a static import would bring them, from their own chunk:
// the core's public entry loads them, so a headless run that imports that entry never does.
const { slashCommands } = await loadSlashCommands();

/** Two presses of Esc this close together are one Esc Esc. */
const DOUBLE_ESCAPE_MS = 800;

export interface AppProps {
  host: SessionHost;
  store: TranscriptStore;
  theme: Theme;
  history: PromptHistory;
  listFiles(query: string): Promise<string[]>;
  version: string;
  exit(): void;
  /** Bumped to reprint the history (after a resize); the runner clears the screen first. */
  refreshKey: number;
  /** Asks the runner to clear the screen and reprint the history (Ctrl+T changes how past reasoning looks). */
  requestReprint(): void;
  /** Called once, when every component (the composer too) is listening for keys. */
  onMounted?(): void;
  /** Hands the terminal to the person's editor on a file (/memory edit); resolves with a problem, if any, once it is back. */
  editFile?(file: string): Promise<string | undefined>;
  /** A prompt sent as if typed first (`agent -i "…"`): it waits for the session like any early line. */
  firstPrompt?: string;
  /** The app's outermost box (run-tui.tsx reaches Ink's paint through it to paint input first). */
  boxRef?: Ref<DOMElement>;
}

export function App(props: AppProps) {
  const { host, store, theme } = props;
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { stdout, write } = useStdout();
  const width = Math.max(20, stdout.columns || 80);
  const rows = Math.max(10, stdout.rows || 24);
  const [dialog, setDialog] = useState<DialogName | undefined>();
  const [showReasoning, setShowReasoning] = useState(false);
  const [inject, setInject] = useState<{ text: string; nonce: number } | undefined>();
  const lastEscape = useRef(0);
  const bus = useInputBus();
  // Effects run children first: when this one runs, the composer's key handler is registered.
  const onMounted = useRef(props.onMounted);
  useEffect(() => onMounted.current?.(), []);
  // Released once the dialog has mounted: its key handlers are registered by then (children's effects
  // run before this component's), so keys typed right after `/model` reach the picker.
  const dialogReady = useRef<(() => void) | undefined>(undefined);
  useEffect(() => {
    dialogReady.current?.();
    dialogReady.current = undefined;
  }, [dialog]);
  const openDialog = useCallback((name: DialogName, ready: () => void) => {
    dialogReady.current?.();
    dialogReady.current = ready;
    setDialog(name);
  }, []);
  const holdInput = useCallback(() => bus.hold(), [bus]);
  const copyToClipboard = useCallback((text: string) => write(osc52(text)), [write]);
  const { submit, waiting, unqueueLast, flushQueue } = useSubmit({
    host,
    store,
    starting: state.starting === true,
    openDialog,
    exit: props.exit,
    holdInput,
    copyToClipboard,
    ...(props.editFile ? { editFile: props.editFile } : {}),
    ...(props.firstPrompt !== undefined ? { first: props.firstPrompt } : {}),
  });
  const queued = [...waiting.map((item) => item.text), ...state.queue.map((item) => item.prompt)];
  const { exitHint } = useAppKeys({
    host,
    currentMode: state.mode,
    setPendingMode: (mode) => store.update((current) => ({ ...current, mode })),
    exit: props.exit,
    toggleReasoning: () => {
      setShowReasoning((shown) => !shown);
      props.requestReprint();
    },
    showPlan: () => {
      const plan = store.getState().lastPlan;
      if (plan === undefined) store.addLocal({ kind: "notice", id: `notice-${Date.now()}`, level: "info", text: "No plan has been put up for review yet." });
      else store.addLocal({ kind: "output", id: `plan-${Date.now()}`, title: "plan.md", text: plan });
    },
    moveAgentToBackground: () => {
      const moved = host.ready ? host.session.dispatch({ type: "background_agent" }) : [];
      if (moved.length === 0) store.addLocal({ kind: "notice", id: `notice-${Date.now()}`, level: "info", text: "No agent is running in the foreground." });
    },
    showToolOutput: () => {
      const last = [...store.getState().items].reverse().find((item) => item.kind === "tool");
      if (last?.kind === "tool") store.addLocal({ kind: "output", id: `output-${last.id}-${Date.now()}`, title: last.title, text: last.output });
    },
  });
  const skip = state.printedOutside?.refreshKey === props.refreshKey ? state.printedOutside.count : 0;
  const entries = useMemo<StaticEntry[]>(() => [{ kind: "header", id: "header" }, ...(skip > 0 ? state.items.slice(skip) : state.items)], [state.items, skip]);
  const permission = state.permissions[0];
  // A plan review, form or question waits behind any permission question.
  const interaction = permission ? undefined : state.questions[0];
  const asking = permission !== undefined || interaction !== undefined;
  // The todo panel (the session's todo list, live) sits with the background lines under the composer.
  const todos = useTodos(host, state.starting === true);
  const skillCommands = useSkillCommands(host, state.starting === true, slashCommands);
  const paletteCommands = useMemo(() => [...slashCommands, ...skillCommands], [skillCommands]);
  const todoRowLimit = Math.max(3, Math.floor(rows / 3));
  const composerActive = dialog === undefined && !asking;
  // Rows left for what changes (the live area, a permission dialog) once the composer (3 rows and a hint;
  // hidden while a permission is asked), the footer (two rows when narrow), the queue and the background
  // lines are counted, and one row to spare: Ink redraws the whole screen, scrollback included, when its
  // output is as tall as the terminal.
  const background =
    (state.background.length > 0 || state.backgroundShells > 0 ? 1 + state.background.length : 0) +
    (todos.length > 0 ? 1 + Math.min(todos.length, todoRowLimit) : 0);
  const composerRows = asking ? 0 : 4;
  const goalRows = state.mode === "autopilot" && state.objective ? 1 : 0;
  const room = Math.max(3, rows - composerRows - 2 - (queued.length > 0 ? queued.length + 1 : 0) - background - goalRows - 1);
  const usage = state.usage;

  return (
    <Box flexDirection="column" ref={props.boxRef}>
      <TranscriptStatic
        key={props.refreshKey}
        entries={entries}
        width={width}
        theme={theme}
        showReasoning={showReasoning}
        version={props.version}
        model={state.model}
        cwd={host.cwd}
      />
      {state.preview !== undefined && <Text>{state.preview}</Text>}
      {/* A permission question takes the room: the tool that asks is not running yet. */}
      {!asking && <LiveArea state={state} theme={theme} width={width} maxLines={room} showReasoning={showReasoning} />}
      {permission && (
        <PermissionDialog
          request={permission.request}
          options={permission.options}
          {...(permission.agentId ? { agent: permission.agentId } : {})}
          theme={theme}
          width={width}
          maxHeight={room}
          queued={state.permissions.length - 1}
          onAnswer={(reply, options) => {
            host.session.dispatch({ type: "respond", requestId: permission.requestId, reply });
            if (options?.stop) host.session.dispatch({ type: "interrupt" });
          }}
        />
      )}
      {interaction && (
        <InteractionDialog
          interaction={interaction}
          theme={theme}
          width={width}
          maxHeight={room}
          respond={(reply) => host.session.dispatch({ type: "respond", requestId: interaction.requestId, reply })}
          interrupt={() => host.session.dispatch({ type: "interrupt" })}
          showPlan={() => {
            const plan = store.getState().lastPlan;
            if (plan !== undefined) store.addLocal({ kind: "output", id: `plan-${Date.now()}`, title: "plan.md", text: plan });
          }}
        />
      )}
      {dialog && (
        <FitBox maxHeight={room}>
          <AppDialog
            dialog={dialog}
            host={host}
            theme={theme}
            width={width}
            close={() => setDialog(undefined)}
            commands={slashCommands}
            notify={(text) => store.addLocal({ kind: "notice", id: `notice-${Date.now()}`, level: "error", text })}
            print={(title, text) => store.addLocal({ kind: "output", id: `output-${Date.now()}`, title, text })}
            editPrompt={(text) => setInject({ text, nonce: Date.now() })}
          />
        </FitBox>
      )}
      <GoalLine objective={state.objective} autopilot={state.mode === "autopilot"} theme={theme} width={width} />
      {queued.length > 0 && <QueuedPrompts items={queued} paused={state.queuePaused} theme={theme} width={width} />}
      {/* Hidden, not unmounted, while a permission is asked: the draft survives. (Not re-indented, to keep the diff small.) */}
      <Box display={asking ? "none" : "flex"} flexDirection="column">
        <Composer
          active={composerActive}
          busy={state.busy || state.running.length > 0}
          theme={theme}
          width={width}
          history={props.history}
          commands={paletteCommands}
          listFiles={props.listFiles}
          cwd={host.cwd}
          onSubmit={submit}
          onQuickHelp={() => setDialog("quick-help")}
          {...(inject ? { inject } : {})}
          onEmptySubmit={flushQueue}
          onEmptyEscape={(double) => {
            // Esc Esc on an empty prompt while idle opens /rewind, as in Copilot and Claude Code.
            if (!host.ready || host.session.state.busy) return false;
            const now = Date.now();
            const again = double || now - lastEscape.current <= DOUBLE_ESCAPE_MS;
            lastEscape.current = again ? 0 : now;
            if (again) setDialog("rewind");
            return again;
          }}
          onEmptyUp={
            queued.length > 0
              ? () => {
                  const last = unqueueLast();
                  if (last) setInject({ text: last.text, nonce: Date.now() });
                  return last !== undefined;
                }
              : undefined
          }
        />
      </Box>
      <TodoPanel todos={todos} theme={theme} width={width} maxRows={todoRowLimit} />
      <BackgroundStatus tasks={state.background} shells={state.backgroundShells} theme={theme} width={width} />
      <Footer
        mode={state.mode}
        model={state.model}
        agent={state.agentName}
        permissionMode={permissionModeLabel(state.permissionSummary)}
        usage={usage}
        cwd={host.cwd}
        branch={host.branch}
        backgroundCount={state.background.filter((task) => task.status === "running").length + state.backgroundShells}
        theme={theme}
        width={width}
        // A `!command` runs outside a turn: it can be stopped with Esc all the same, so the hint shows.
        busy={state.busy || state.running.length > 0}
        hint={exitHint ?? (state.starting ? STARTING_HINT : undefined)}
      />
    </Box>
  );
}
