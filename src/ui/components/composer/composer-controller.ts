/**
 * The composer's key handling without React: given the model and a key, the next model and whether the key
 * was consumed. The component keeps the model in a ref (several keys can arrive before React renders) and
 * renders after each change. Keys it does not consume (Ctrl+C or Ctrl+D on an empty prompt, Esc with no
 * popup, Shift+Tab, Ctrl+T, …) go on to the app.
 */
import type { Key } from "../../terminal/keys.js";
import { isKey } from "../../terminal/keys.js";
import { commandLine, matchCommands, paletteQuery, type PaletteCommand } from "./command-palette.js";
import { editingKeyAction } from "./editing-keys.js";
import { deleteForward, editorFromText, emptyEditor, insertNewline, lineEndAt, moveDown, moveUp, replaceRange, type EditorState } from "./editor-state.js";
import { findMention, mentionToken, rankFiles, type Mention } from "./file-mentions.js";
import { searchBackspace, searchOlder, searchType, startSearch, type ReverseSearch } from "./prompt-history-search.js";

export interface ComposerModel {
  editor: EditorState;
  /** Walking the history with ↑/↓: the entry shown and the draft to come back to. */
  walk?: { index: number; draft: EditorState };
  /** Ctrl+R search, and the editor to restore on Esc. */
  search?: { state: ReverseSearch; saved: EditorState };
  /** The popup selection. */
  selected: number;
  /** Esc closed the popups for this exact text; they come back when it changes. */
  dismissedFor?: string;
  /** The last files listFiles returned (re-ranked locally for each query while a new lookup runs). */
  files: readonly string[];
}

export const initialModel: ComposerModel = { editor: emptyEditor, selected: 0, files: [] };

export type Popup = { kind: "commands"; items: PaletteCommand[]; selected: number } | { kind: "files"; items: string[]; selected: number; mention: Mention };

export interface ComposerContext {
  entries: readonly string[];
  commands: readonly PaletteCommand[];
  /** Sends the editor's content; false when there was nothing to send (the editor then stays as it is). */
  submit(editor: EditorState): boolean;
  quickHelp(): void;
  /** ↑ on an empty prompt before the history: true when it took something (a queued prompt) back. */
  emptyUp?: () => boolean;
  /** Esc on an empty prompt (`double`: two in one read, ESC ESC): true when it was taken (Esc Esc opens /rewind). */
  emptyEscape?: (double: boolean) => boolean;
}

export function popupOf(model: ComposerModel, commands: readonly PaletteCommand[]): Popup | undefined {
  const { editor } = model;
  if (model.search || editor.text === "" || model.dismissedFor === editor.text) return undefined;
  const query = paletteQuery(editor.text);
  if (query !== undefined) {
    const items = matchCommands(commands, query);
    return items.length > 0 ? { kind: "commands", items, selected: Math.min(model.selected, items.length - 1) } : undefined;
  }
  const mention = findMention(editor.text, editor.cursor);
  if (!mention) return undefined;
  const items = rankFiles(model.files, mention.query);
  return items.length > 0 ? { kind: "files", items, selected: Math.min(model.selected, items.length - 1), mention } : undefined;
}

/** A new editor: the popup selection and dismissal start over when the text changes. */
function edit(model: ComposerModel, editor: EditorState): ComposerModel {
  if (editor === model.editor) return model;
  const changed = editor.text !== model.editor.text;
  return { ...model, editor, selected: changed ? 0 : model.selected, dismissedFor: changed ? undefined : model.dismissedFor };
}

type Result = { model: ComposerModel; consumed: boolean };
const done = (model: ComposerModel): Result => ({ model, consumed: true });
const pass = (model: ComposerModel): Result => ({ model, consumed: false });

function isNewlineKey(key: Key): boolean {
  return (key.name === "enter" && (key.shift || key.ctrl || key.meta)) || isKey(key, "ctrl+j");
}

function searchKey(model: ComposerModel, key: Key, entries: readonly string[]): Result {
  const search = model.search as NonNullable<ComposerModel["search"]>;
  const accept = () => {
    const match = search.state.match;
    if (match === undefined) return { ...model, editor: search.saved, search: undefined };
    // A recalled "/help" or "@file" should not pop a list up over it: popups wait for the first edit.
    const text = entries[match] ?? "";
    return { ...edit(model, editorFromText(text)), search: undefined, walk: undefined, dismissedFor: text };
  };
  if (key.name === "escape" || isKey(key, "ctrl+c") || isKey(key, "ctrl+g")) return done({ ...model, editor: search.saved, search: undefined });
  if (isKey(key, "ctrl+r")) return done({ ...model, search: { ...search, state: searchOlder(entries, search.state) } });
  if (key.name === "enter" && !isNewlineKey(key)) return done(accept());
  if (key.name === "backspace") return done({ ...model, search: { ...search, state: searchBackspace(entries, search.state) } });
  if (key.name === "char" && !key.ctrl && !key.meta) return done({ ...model, search: { ...search, state: searchType(entries, search.state, key.char) } });
  // Any other key accepts the match and then acts on the editor.
  return { model: accept(), consumed: false };
}

function popupKey(model: ComposerModel, popup: Popup, key: Key, ctx: ComposerContext): Result | undefined {
  const count = popup.items.length;
  if (key.name === "up" && !key.meta && !key.ctrl) return done({ ...model, selected: (popup.selected - 1 + count) % count });
  if (key.name === "down" && !key.meta && !key.ctrl) return done({ ...model, selected: (popup.selected + 1) % count });
  if (key.name === "escape") return done({ ...model, dismissedFor: model.editor.text });
  const complete = key.name === "tab" && !key.shift;
  const enter = key.name === "enter" && !isNewlineKey(key);
  if (!complete && !enter) return undefined;
  const { editor } = model;
  if (popup.kind === "commands") {
    const command = popup.items[popup.selected] as PaletteCommand;
    if (complete) return done(edit(model, editorFromText(`/${command.name} `)));
    const wordEnd = /^\/\S*/.exec(editor.text)?.[0].length ?? editor.text.length;
    const line = replaceRange(editor, 0, wordEnd, commandLine(editor.text.slice(0, wordEnd), command.name));
    return done(ctx.submit(line) ? clearAll(model) : model);
  }
  const file = popup.items[popup.selected] as string;
  const { start, end, query } = popup.mention;
  if (enter && file === query) return undefined; // the path is already typed out: Enter sends
  const spaced = editor.text[end] === " " ? end + 1 : end;
  return done(edit(model, replaceRange(editor, start, spaced, `${mentionToken(file)} `)));
}

function clearAll(model: ComposerModel): ComposerModel {
  return { ...initialModel, files: model.files };
}

function historyKey(model: ComposerModel, direction: -1 | 1, ctx: ComposerContext): Result {
  const { entries } = ctx;
  const moved = direction < 0 ? moveUp(model.editor) : moveDown(model.editor);
  if (moved) return done({ ...model, editor: moved });
  const walk = model.walk;
  if (direction < 0) {
    if (!walk && model.editor.text === "" && ctx.emptyUp?.() === true) return done(model);
    if (entries.length === 0) return pass(model);
    if (walk?.index === 0) return done(model);
    const index = walk ? walk.index - 1 : entries.length - 1;
    const text = entries[index] ?? "";
    // Going up, the cursor sits on the entry's first line, so ↑ again goes on to older entries.
    return done({ ...edit(model, editorFromText(text, lineEndAt(text, 0))), walk: { index, draft: walk?.draft ?? model.editor }, dismissedFor: text });
  }
  if (!walk) return pass(model);
  if (walk.index + 1 < entries.length) {
    const text = entries[walk.index + 1] ?? "";
    return done({ ...edit(model, editorFromText(text)), walk: { ...walk, index: walk.index + 1 }, dismissedFor: text });
  }
  return done({ ...edit(model, walk.draft), walk: undefined });
}

export function handleComposerKey(model: ComposerModel, key: Key, ctx: ComposerContext): Result {
  if (model.search) {
    const result = searchKey(model, key, ctx.entries);
    if (result.consumed) return result;
    model = result.model;
  }
  const popup = popupOf(model, ctx.commands);
  if (popup) {
    const result = popupKey(model, popup, key, ctx);
    if (result) return result;
  }
  const { editor } = model;
  if (isNewlineKey(key)) return done(edit(model, insertNewline(editor)));
  if (key.name === "enter") {
    if (editor.cursor > 0 && editor.text[editor.cursor - 1] === "\\") return done(edit(model, replaceRange(editor, editor.cursor - 1, editor.cursor, "\n")));
    return done(ctx.submit(editor) ? clearAll(model) : model);
  }
  if ((key.name === "up" || key.name === "down") && !key.ctrl && !key.meta && !key.shift) return historyKey(model, key.name === "up" ? -1 : 1, ctx);
  if (isKey(key, "ctrl+r")) return done({ ...model, search: { state: startSearch, saved: editor } });
  if (key.name === "escape" && editor.text === "" && ctx.emptyEscape?.(key.meta) === true) return done(model);
  if (isKey(key, "ctrl+c")) return editor.text === "" ? pass(model) : done(clearAll(model));
  if (isKey(key, "ctrl+d")) return editor.text === "" ? pass(model) : done(edit(model, deleteForward(editor)));
  if (key.name === "char" && key.char === "?" && !key.ctrl && !key.meta && editor.text === "") {
    ctx.quickHelp();
    return done(model);
  }
  const action = editingKeyAction(key);
  return action ? done(edit(model, action(editor))) : pass(model);
}
