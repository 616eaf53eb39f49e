/**
 * The prompt box: a multi-line editor with paste chips, history (↑/↓, Ctrl+R), the `/` command palette, the
 * `@` file picker and a hint line. Keys and pastes come from the input bus at composer priority; what it
 * does not consume (Ctrl+C / Ctrl+D on an empty prompt, Esc without a popup, Shift+Tab, …) reaches the app.
 *
 * The model lives in a ref, not in React state, because several keys can arrive before React renders (a
 * fast typist, a driver typing a string); each change then asks for one render. A paste is one model change
 * however large, and a frame wraps only the rows around the cursor.
 */
import { Box, Text } from "ink";
import { useCallback, useEffect, useReducer, useRef } from "react";
import type { Attachment } from "../../../protocol/events/shared-schemas.js";
import type { PromptHistory } from "../../../session/prompt-history.js";
import { Priority } from "../../terminal/input-bus.js";
import { useKeys, usePaste } from "../../terminal/input-context.js";
import type { Theme } from "../../theme.js";
import type { PaletteCommand } from "./command-palette.js";
import { handleComposerKey, initialModel, popupOf, type ComposerModel, type Popup } from "./composer-controller.js";
import { EditorView, PopupList, Rule, type PopupItem } from "./composer-view.js";
import { editorFromText, expand, insertPaste, type EditorState } from "./editor-state.js";
import { findMention } from "./file-mentions.js";
import { searchLine } from "./prompt-history-search.js";
import { IDLE_HINT, IDLE_PLACEHOLDER } from "../../first-frame.js";

export interface ComposerSubmission {
  /** The prompt as typed, with paste chips replaced by their text (byte for byte). */
  text: string;
  /** One per `@path` in the prompt that names an existing file or directory. */
  attachments: Attachment[];
}

export interface ComposerProps {
  /** Receives keys and pastes (false while a dialog has the keyboard); the cursor is drawn only when active. */
  active: boolean;
  /** The agent is working: the hint says Enter queues and Esc interrupts. */
  busy: boolean;
  theme: Theme;
  /** Columns available (the terminal width). */
  width: number;
  /** Walked with ↑/↓ and searched with Ctrl+R; each submitted prompt is added. */
  history: PromptHistory;
  /** For the `/` palette (the core's slash-command registry). */
  commands: readonly PaletteCommand[];
  /** Files for the `@` picker matching a query, as paths relative to `cwd`. */
  listFiles(query: string): Promise<string[]>;
  onSubmit(submission: ComposerSubmission): void;
  /** `?` typed on an empty prompt. */
  onQuickHelp(): void;
  /** When `nonce` changes, the prompt is replaced by `text` (to edit a queued prompt). */
  inject?: { text: string; nonce: number };
  /** ↑ on an empty prompt, before the history is walked: return true if it took something back (a queued prompt). */
  onEmptyUp?: () => boolean;
  /** Enter on an empty prompt (sends a queue held after an interrupt). */
  onEmptySubmit?: () => void;
  /** Esc on an empty prompt (`double`: ESC ESC in one read): return true to take the key. */
  onEmptyEscape?: (double: boolean) => boolean;
  /** Shown dim when the prompt is empty. */
  placeholder?: string;
  /** The working directory (for the `@` picker's paths). */
  cwd?: string;
  /** The most text rows drawn; more shows "… N more lines" around the cursor (default 15). */
  maxRows?: number;
}

const DEFAULT_PLACEHOLDER = IDLE_PLACEHOLDER;
const FILE_LOOKUP_DEBOUNCE_MS = 25;
/** Longer prompts are sent but not kept in the history file. */
export const HISTORY_TEXT_LIMIT = 100_000;

function hintFor(model: ComposerModel, popup: Popup | undefined, busy: boolean): string {
  if (model.search) return "Enter accept · Ctrl+R older match · Esc cancel";
  if (popup?.kind === "commands") return "↑↓ select · Tab complete · Enter run · Esc close";
  if (popup?.kind === "files") return "↑↓ select · Tab/Enter insert · Esc close";
  const shell = model.editor.text.startsWith("!");
  if (busy) return shell ? "Agent is working · Enter queues the shell command · Esc interrupts" : "Agent is working · Enter queues · Esc interrupts";
  if (shell) return "Shell command · Enter runs it and shares the output with the agent";
  return IDLE_HINT;
}

function popupItems(popup: Popup): PopupItem[] {
  if (popup.kind === "files") return popup.items.map((file) => ({ label: file }));
  return popup.items.map((command) => ({
    label: `/${command.name}${command.argsHint ? ` ${command.argsHint}` : ""}`,
    detail: command.description + (command.aliases && command.aliases.length > 0 ? ` (${command.aliases.map((alias) => `/${alias}`).join(", ")})` : ""),
  }));
}

export function Composer(props: ComposerProps) {
  const { active, busy, theme, width } = props;
  const model = useRef<ComposerModel>(initialModel);
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const latest = useRef(props);
  latest.current = props;

  const commit = useCallback((next: ComposerModel) => {
    if (next === model.current) return;
    model.current = next;
    rerender();
  }, []);

  // A new inject replaces the content before this render draws it (the nonce makes this run once per inject).
  const injected = useRef<number | undefined>(undefined);
  if (props.inject && props.inject.nonce !== injected.current) {
    injected.current = props.inject.nonce;
    model.current = { ...initialModel, files: model.current.files, editor: editorFromText(props.inject.text), dismissedFor: props.inject.text };
  }

  const submit = useCallback((editor: EditorState): boolean => {
    const text = expand(editor);
    if (text.trim() === "") {
      latest.current.onEmptySubmit?.();
      return false;
    }
    const { history, onSubmit } = latest.current;
    if (text.length <= HISTORY_TEXT_LIMIT) history.add(text);
    // `@path` mentions are resolved by the engine's input router, like every other face's input.
    onSubmit({ text, attachments: [] });
    return true;
  }, []);

  useKeys(
    (key) => {
      const current = latest.current;
      const result = handleComposerKey(model.current, key, {
        entries: current.history.entries,
        commands: current.commands,
        submit,
        quickHelp: () => latest.current.onQuickHelp(),
        ...(current.onEmptyUp ? { emptyUp: current.onEmptyUp } : {}),
        ...(current.onEmptyEscape ? { emptyEscape: current.onEmptyEscape } : {}),
      });
      commit(result.model);
      return result.consumed;
    },
    Priority.composer,
    active,
  );

  usePaste(
    (text) => {
      const current = model.current.search ? { ...model.current, editor: model.current.search.saved, search: undefined } : model.current;
      commit({ ...current, editor: insertPaste(current.editor, text), selected: 0, dismissedFor: undefined });
      return true;
    },
    Priority.composer,
    active,
  );

  const state = model.current;
  const mentionQuery = state.search ? undefined : findMention(state.editor.text, state.editor.cursor)?.query;
  useEffect(() => {
    if (mentionQuery === undefined || !active) return undefined;
    let cancelled = false;
    const timer = setTimeout(() => {
      latest.current.listFiles(mentionQuery).then(
        (files) => {
          if (!cancelled) commit({ ...model.current, files });
        },
        () => undefined, // no file list: the picker just stays closed
      );
    }, FILE_LOOKUP_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [mentionQuery, active, commit]);

  const popup = popupOf(state, props.commands);
  const shell = state.editor.text.startsWith("!");
  return (
    <Box flexDirection="column" width={width}>
      <Rule theme={theme} width={width} />
      {state.search ? (
        <Text wrap="truncate-end">{searchLine(props.history.entries, state.search.state)}</Text>
      ) : (
        <EditorView
          editor={state.editor}
          theme={theme}
          width={width}
          maxRows={props.maxRows ?? 15}
          placeholder={props.placeholder ?? DEFAULT_PLACEHOLDER}
          showCursor={active}
          shell={shell}
        />
      )}
      <Rule theme={theme} width={width} />
      {popup && <PopupList items={popupItems(popup)} selected={popup.selected} theme={theme} width={width} />}
      <Text color={theme.muted} wrap="truncate-end">
        {hintFor(state, popup, busy)}
      </Text>
    </Box>
  );
}
