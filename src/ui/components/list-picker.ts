/** What the list pickers (models, sessions) share: their keys, the filter line, the visible window. */
import type { Key } from "../terminal/keys.js";

/** The first row to show so that `selected` is visible in a window of `size` rows. */
export function windowStart(selected: number, count: number, size: number): number {
  if (count <= size) return 0;
  return Math.min(Math.max(0, selected - Math.floor(size / 2)), count - size);
}

/** Editing keys shared by the pickers' filter line; returns the new text, or undefined for other keys. */
export function editFilter(text: string, key: Key): string | undefined {
  if (key.name === "backspace") return Array.from(text).slice(0, -1).join("");
  if (key.ctrl && key.char === "u") return "";
  if (key.name === "char" && !key.ctrl && !key.meta && key.char !== "") return text + key.char;
  return undefined;
}

export type PickerAction = { kind: "cancel" } | { kind: "select" } | { kind: "move"; index: number } | { kind: "filter"; text: string } | { kind: "none" };

/** What a key does in a list of `count` rows with `index` selected and `filter` typed. */
export function pickerAction(key: Key, index: number, count: number, filter: string): PickerAction {
  if (key.name === "escape" || (key.ctrl && key.char === "c")) return { kind: "cancel" };
  if (key.name === "enter") return { kind: "select" };
  if (key.name === "up" || key.name === "down") {
    return count > 0 ? { kind: "move", index: (index + (key.name === "up" ? -1 : 1) + count) % count } : { kind: "none" };
  }
  const text = editFilter(filter, key);
  return text === undefined ? { kind: "none" } : { kind: "filter", text };
}

/** A paste into the filter line: one line of text. */
export function pastedFilter(filter: string, pasted: string): string {
  return filter + pasted.replace(/\s+/g, " ").trim();
}
