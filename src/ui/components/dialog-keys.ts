/**
 * The keys every question dialog shares: editing a one-line free-text answer, and moving through numbered
 * choices. Each dialog keeps its own meaning for Esc, Ctrl+C and what a choice does.
 */
import type { Key } from "../terminal/keys.js";

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
