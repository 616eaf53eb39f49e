/**
 * The interactive app: finished history in <Static> (printed once, kept in the terminal's own scrollback),
 * then the live area, a dialog when one is open, the queue, the composer and the footer. It renders the
 * transcript store and sends commands to the session; the engine does the rest.
 */
import { Box, Static, Text, useStdout } from "ink";
import { useMemo, useState, useSyncExternalStore } from "react";
import { slashCommands } from "../../core/slash-commands/registry.js";
import type { PromptHistory } from "../../session/prompt-history.js";
import { BackgroundStatus } from "../components/background-status.js";
import { Composer } from "../components/composer/composer.js";
import { QueuedPrompts } from "../components/composer/queued-prompts.js";
import { Footer } from "../components/footer.js";
import { HistoryItem } from "../components/history-item.js";
import { PermissionDialog } from "../components/permission-dialog.js";
import type { SessionHost } from "../session-host.js";
import type { TranscriptStore } from "../state/transcript-store.js";
import type { TranscriptItem } from "../state/transcript-types.js";
import type { Theme } from "../theme.js";
import { AppDialog } from "./app-dialog.js";
import { LiveArea } from "./live-area.js";
import { useAppKeys } from "./use-app-keys.js";
import { useSubmit, type DialogName } from "./use-submit.js";

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
}

type StaticEntry = { kind: "header"; id: string } | TranscriptItem;

export function App(props: AppProps) {
  const { host, store, theme } = props;
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { stdout } = useStdout();
  const width = Math.max(20, stdout.columns || 80);
  const rows = Math.max(10, stdout.rows || 24);
  const [dialog, setDialog] = useState<DialogName | undefined>();
  const [showReasoning, setShowReasoning] = useState(false);
  const [inject, setInject] = useState<{ text: string; nonce: number } | undefined>();
  const { submit, queue, unqueueLast } = useSubmit({ host, store, busy: state.busy, starting: state.starting === true, openDialog: setDialog, exit: props.exit });
  const { exitHint } = useAppKeys({
    host,
    currentMode: state.mode,
    setPendingMode: (mode) => store.update((current) => ({ ...current, mode })),
    exit: props.exit,
    toggleReasoning: () => {
      setShowReasoning((shown) => !shown);
      props.requestReprint();
    },
    showToolOutput: () => {
      const last = [...store.getState().items].reverse().find((item) => item.kind === "tool");
      if (last?.kind === "tool") store.addLocal({ kind: "output", id: `output-${last.id}-${Date.now()}`, title: last.title, text: last.output });
    },
  });
  const skip = state.printedOutside?.refreshKey === props.refreshKey ? state.printedOutside.count : 0;
  const entries = useMemo<StaticEntry[]>(() => [{ kind: "header", id: "header" }, ...(skip > 0 ? state.items.slice(skip) : state.items)], [state.items, skip]);
  const permission = state.permissions[0];
  const composerActive = dialog === undefined && permission === undefined;
  const usage = state.usage;

  return (
    <Box flexDirection="column">
      <Static key={props.refreshKey} items={entries}>
        {(entry) =>
          entry.kind === "header" ? (
            <Box key="header" flexDirection="column" marginBottom={1}>
              <Text color={theme.accent} bold>
                agent {props.version}
              </Text>
              <Text color={theme.muted}>
                {state.model} · {host.cwd} · ? for help, / for commands
              </Text>
            </Box>
          ) : (
            <Box key={entry.id} marginBottom={entry.kind === "reasoning" ? 0 : 1}>
              <HistoryItem item={entry} width={width} theme={theme} showReasoning={showReasoning} />
            </Box>
          )
        }
      </Static>
      {state.preview !== undefined && <Text>{state.preview}</Text>}
      <LiveArea
        state={state}
        theme={theme}
        width={width}
        maxLines={Math.max(3, rows - 14)}
        showReasoning={showReasoning}
      />
      {permission && (
        <PermissionDialog
          request={permission.request}
          theme={theme}
          width={width}
          queued={state.permissions.length - 1}
          onAnswer={(reply, options) => {
            host.session.respondToPermission(permission.requestId, reply);
            if (options?.stop) host.session.interrupt();
          }}
        />
      )}
      {dialog && <AppDialog dialog={dialog} host={host} theme={theme} width={width} close={() => setDialog(undefined)} commands={slashCommands} notify={(text) => store.addLocal({ kind: "notice", id: `notice-${Date.now()}`, level: "error", text })} />}
      {queue.length > 0 && <QueuedPrompts items={queue.map((item) => item.text)} theme={theme} width={width} />}
      <Composer
        active={composerActive}
        busy={state.busy}
        theme={theme}
        width={width}
        history={props.history}
        commands={slashCommands}
        listFiles={props.listFiles}
        cwd={host.cwd}
        onSubmit={submit}
        onQuickHelp={() => setDialog("quick-help")}
        {...(inject ? { inject } : {})}
        onEmptyUp={queue.length > 0 ? () => {
          const last = unqueueLast();
          if (last) setInject({ text: last.text, nonce: Date.now() });
          return last !== undefined;
        } : undefined}
      />
      <BackgroundStatus tasks={state.background} shells={state.backgroundShells} theme={theme} width={width} />
      <Footer
        mode={state.mode}
        model={state.model}
        permissionMode={host.ready && host.session.permissionBroker.allowAll ? "Allow All" : "Manual Approval"}
        usage={usage}
        cwd={host.cwd}
        branch={host.branch}
        backgroundCount={state.background.filter((task) => task.status === "running").length + state.backgroundShells}
        theme={theme}
        width={width}
        busy={state.busy}
        hint={exitHint ?? (state.starting ? "Starting…" : undefined)}
      />
    </Box>
  );
}
