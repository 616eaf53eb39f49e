/**
 * The keys every question dialog shares: editing a one-line free-text answer, and moving through numbered
 * choices. Each dialog keeps its own meaning for Esc, Ctrl+C and what a choice does.
 */
import { Priority } from "../terminal/input-bus.js";
import { useKeys, usePaste } from "../terminal/input-context.js";
import type { Key } from "../terminal/keys.js";

/**
 * A question dialog owns the keyboard while it is open: every key goes to `onKey`, and pasted text, folded
 * to one line (a free-text answer is one line), to `onPaste`.
 */
export function useDialogInput(onKey: (key: Key) => void, onPaste: (line: string) => void): void {
  useKeys((key) => {
    onKey(key);
    return true;
  }, Priority.dialog);
  usePaste((text) => {
    onPaste(text.replace(/\s*\r?\n\s*/g, " "));
    return true;
  }, Priority.dialog);
}

/** The text after an editing key (Backspace, Ctrl+U, a typed character), or undefined when the key edits nothing. */
export function editedText(key: Key, text: string): string | undefined {
  if (key.name === "backspace") return Array.from(text).slice(0, -1).join("");
  if (key.ctrl && key.char === "u") return "";
  if (key.name === "char" && !key.ctrl && !key.meta) return text + key.char;
  return undefined;
}

/** ↑/↓/Tab move the selection (wrapping), Enter picks it, a digit picks that choice; undefined for other keys. */
export function choiceKey(key: Key, selected: number, count: number): { select: number } | { pick: number } | undefined {
  if (key.name === "up") return { select: (selected - 1 + count) % count };
  if (key.name === "down" || key.name === "tab") return { select: (selected + 1) % count };
  if (key.name === "enter") return { pick: selected };
  if (key.name === "char" && !key.ctrl && !key.meta && /^[1-9]$/.test(key.char)) return { pick: Number(key.char) - 1 };
  return undefined;
}
