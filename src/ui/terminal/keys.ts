/** Input as the TUI sees it: keys with modifiers, and whole pastes. */

export type KeyName =
  | "char"
  | "enter"
  | "tab"
  | "backspace"
  | "delete"
  | "escape"
  | "up"
  | "down"
  | "left"
  | "right"
  | "home"
  | "end"
  | "pageup"
  | "pagedown"
  | "insert"
  | "f1"
  | "f2"
  | "f3"
  | "f4"
  | "f5"
  | "f6"
  | "f7"
  | "f8"
  | "f9"
  | "f10"
  | "f11"
  | "f12";

export interface Key {
  name: KeyName;
  /** The character typed, for `char` keys (one grapheme; letters keep their case). */
  char: string;
  ctrl: boolean;
  /** Alt / Option / Meta. */
  meta: boolean;
  shift: boolean;
  /** The raw bytes, for debugging. */
  sequence: string;
}

export type InputEvent = { type: "key"; key: Key } | { type: "paste"; text: string };

export function key(name: KeyName, options: Partial<Omit<Key, "name">> = {}): Key {
  return {
    name,
    char: options.char ?? "",
    ctrl: options.ctrl ?? false,
    meta: options.meta ?? false,
    shift: options.shift ?? false,
    sequence: options.sequence ?? "",
  };
}

/** Matches "ctrl+c", "shift+tab", "meta+left", "enter", "a" against a key. */
export function isKey(input: Key, spec: string): boolean {
  const parts = spec.toLowerCase().split("+");
  const name = parts.pop() ?? "";
  const wants = { ctrl: parts.includes("ctrl"), meta: parts.includes("meta") || parts.includes("alt"), shift: parts.includes("shift") };
  if (input.ctrl !== wants.ctrl || input.meta !== wants.meta) return false;
  if (input.name === "char") return input.char.toLowerCase() === name && (wants.shift ? input.shift || input.char !== input.char.toLowerCase() : true);
  return input.name === name && input.shift === wants.shift;
}
