/**
 * The editing keys of the prompt, as a map from a key to an editor operation. Keys that mean something
 * beyond editing (Enter, ↑/↓, Ctrl+C, Ctrl+D, Esc, Ctrl+R, Tab) are the composer's business, not this map's.
 */
import type { Key } from "../../terminal/keys.js";
import {
  backspace,
  deleteForward,
  deleteToLineEnd,
  deleteToLineStart,
  deleteWordBack,
  deleteWordForward,
  insertText,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  moveWordLeft,
  moveWordRight,
  type EditorState,
} from "./editor-state.js";

type Edit = (state: EditorState) => EditorState;

const CTRL_KEYS: Record<string, Edit> = {
  a: moveLineStart,
  e: moveLineEnd,
  b: moveLeft,
  f: moveRight,
  h: backspace,
  w: deleteWordBack,
  u: deleteToLineStart,
  k: deleteToLineEnd,
};

const META_KEYS: Record<string, Edit> = { b: moveWordLeft, f: moveWordRight, d: deleteWordForward };

/** The edit a key makes, or undefined when it is not an editing key. */
export function editingKeyAction(key: Key): Edit | undefined {
  switch (key.name) {
    case "left":
      return key.meta || key.ctrl ? moveWordLeft : moveLeft;
    case "right":
      return key.meta || key.ctrl ? moveWordRight : moveRight;
    case "home":
      return moveLineStart;
    case "end":
      return moveLineEnd;
    case "backspace":
      return key.meta || key.ctrl ? deleteWordBack : backspace;
    case "delete":
      return key.meta || key.ctrl ? deleteWordForward : deleteForward;
    case "char": {
      const char = key.char.toLowerCase();
      if (key.ctrl && !key.meta) return CTRL_KEYS[char];
      if (key.meta && !key.ctrl) return META_KEYS[char];
      if (key.ctrl || key.meta || key.char === "") return undefined;
      const typed = key.char;
      return (state) => insertText(state, typed);
    }
    default:
      return undefined;
  }
}
