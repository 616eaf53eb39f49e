/**
 * Turns the bytes of a terminal in raw mode into keys and pastes, once, at the stdin level.
 * - Bracketed pastes (ESC[200~ … ESC[201~) become one paste event, however many chunks they arrive in and
 *   however large; a paste whose end marker never comes is delivered after a timeout, so input never freezes.
 * - Escape sequences split across reads are reassembled; a lone ESC is a key after a short wait.
 * - Terminal replies (focus in/out, cursor position, device attributes, mouse reports) are dropped, so they
 *   never reach the prompt as text.
 * - Keys: CSI and SS3 forms, xterm modifiers (ESC[1;5C), kitty / modifyOtherKeys CSI u (shift+enter).
 */
import { key, type InputEvent, type Key, type KeyName } from "./keys.js";

const PASTE_START = "\u001b[200~";
const PASTE_END = "\u001b[201~";

const CSI_FINAL_KEYS: Record<string, KeyName> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  Z: "tab",
  P: "f1",
  Q: "f2",
  R: "f3",
  S: "f4",
};
const CSI_TILDE_KEYS: Record<string, KeyName> = {
  "1": "home",
  "2": "insert",
  "3": "delete",
  "4": "end",
  "5": "pageup",
  "6": "pagedown",
  "7": "home",
  "8": "end",
  "11": "f1",
  "12": "f2",
  "13": "f3",
  "14": "f4",
  "15": "f5",
  "17": "f6",
  "18": "f7",
  "19": "f8",
  "20": "f9",
  "21": "f10",
  "23": "f11",
  "24": "f12",
};
const CSI_U_KEYS: Record<number, KeyName> = { 13: "enter", 9: "tab", 27: "escape", 127: "backspace", 8: "backspace" };

function modifiers(code: number): { shift: boolean; meta: boolean; ctrl: boolean } {
  const bits = Math.max(0, code - 1);
  return { shift: (bits & 1) !== 0, meta: (bits & 2) !== 0 || (bits & 8) !== 0, ctrl: (bits & 4) !== 0 };
}

/** Parses one CSI sequence body (after ESC[); undefined when it is a terminal reply to drop. */
function csiKey(params: string, final: string, sequence: string): Key | undefined {
  if (final === "I" || final === "O") return undefined; // focus in/out
  if (final === "R" && /^\d+;\d+$/.test(params)) return undefined; // cursor position report
  if (final === "c" || final === "n" || final === "t" || final === "y") return undefined; // device attributes, status, window reports
  if (final === "M" || final === "m") return undefined; // mouse
  if (params.startsWith("<") || params.startsWith("?") || params.startsWith(">")) return undefined;
  const parts = params.split(";");
  if (final === "u") {
    const code = Number(parts[0]);
    const mods = modifiers(Number(parts[1] ?? "1"));
    const named = CSI_U_KEYS[code];
    if (named) return key(named, { ...mods, sequence });
    const char = String.fromCodePoint(code);
    return key("char", { ...mods, char: mods.shift && char.length === 1 ? char.toUpperCase() : char, sequence });
  }
  if (final === "~") {
    // xterm modifyOtherKeys: ESC[27;<mod>;<code>~
    if (parts[0] === "27" && parts[2] !== undefined) return csiKey(`${parts[2]};${parts[1]}`, "u", sequence);
    const named = CSI_TILDE_KEYS[parts[0] ?? ""];
    return named ? key(named, { ...modifiers(Number(parts[1] ?? "1")), sequence }) : undefined;
  }
  const named = CSI_FINAL_KEYS[final];
  if (!named) return undefined;
  const mods = modifiers(Number(parts[1] ?? "1"));
  return key(named, { ...mods, shift: mods.shift || final === "Z", sequence });
}

function controlKey(char: string, meta: boolean, sequence: string): Key {
  const code = char.charCodeAt(0);
  if (char === "\r") return key("enter", { meta, sequence });
  if (char === "\n") return key("enter", { ctrl: true, meta, sequence }); // Ctrl+J
  if (char === "\t") return key("tab", { meta, sequence });
  if (char === "\u007f" || char === "\b") return key("backspace", { meta, sequence });
  if (char === "\u001b") return key("escape", { meta, sequence });
  if (code === 0) return key("char", { char: " ", ctrl: true, meta, sequence });
  if (code < 27) return key("char", { char: String.fromCharCode(code + 96), ctrl: true, meta, sequence });
  if (code < 32) return key("char", { char: String.fromCharCode(code + 64), ctrl: true, meta, sequence });
  return key("char", { char, meta, shift: char !== char.toLowerCase(), sequence });
}

export interface InputParserOptions {
  /** How long a lone ESC (or an unfinished sequence) waits for the rest. */
  escapeTimeoutMs?: number;
  /** How long a paste may go without its end marker before it is delivered anyway. */
  pasteTimeoutMs?: number;
}

export class InputParser {
  private buffer = "";
  private paste: string[] | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly escapeTimeoutMs: number;
  private readonly pasteTimeoutMs: number;

  constructor(
    private readonly emit: (event: InputEvent) => void,
    options: InputParserOptions = {},
  ) {
    this.escapeTimeoutMs = options.escapeTimeoutMs ?? 50;
    this.pasteTimeoutMs = options.pasteTimeoutMs ?? 1000;
  }

  push(data: string): void {
    clearTimeout(this.timer);
    this.buffer += data;
    this.drain();
    if (this.paste) this.timer = setTimeout(() => this.flushPaste(), this.pasteTimeoutMs);
    else if (this.buffer !== "") this.timer = setTimeout(() => this.flushPending(), this.escapeTimeoutMs);
  }

  /** Delivers whatever is waiting (used when the timeout fires, and when input ends). */
  flush(): void {
    clearTimeout(this.timer);
    if (this.paste) this.flushPaste();
    this.flushPending();
  }

  private flushPaste(): void {
    if (!this.paste) return;
    const text = this.paste.join("") + this.buffer;
    this.paste = undefined;
    this.buffer = "";
    this.emit({ type: "paste", text });
  }

  private flushPending(): void {
    const pending = this.buffer;
    this.buffer = "";
    for (const char of pending) this.emit({ type: "key", key: controlKey(char, false, char) });
  }

  private drain(): void {
    while (this.buffer !== "") {
      if (this.paste) {
        const end = this.buffer.indexOf(PASTE_END);
        if (end < 0) {
          // Keep back only a tail that could be the start of the end marker.
          let keep = Math.min(this.buffer.length, PASTE_END.length - 1);
          while (keep > 0 && !PASTE_END.startsWith(this.buffer.slice(this.buffer.length - keep))) keep--;
          this.paste.push(this.buffer.slice(0, this.buffer.length - keep));
          this.buffer = this.buffer.slice(this.buffer.length - keep);
          return;
        }
        this.paste.push(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + PASTE_END.length);
        const text = this.paste.join("");
        this.paste = undefined;
        this.emit({ type: "paste", text });
        continue;
      }
      if (this.buffer.startsWith(PASTE_START)) {
        this.paste = [];
        this.buffer = this.buffer.slice(PASTE_START.length);
        continue;
      }
      if (this.buffer[0] !== "\u001b") {
        const [char = ""] = this.buffer; // one code point
        this.buffer = this.buffer.slice(char.length);
        this.emit({ type: "key", key: controlKey(char, false, char) });
        continue;
      }
      const consumed = this.escape();
      if (consumed === 0) return; // incomplete: wait for more bytes or the timeout
    }
  }

  /** Parses an escape sequence at the start of the buffer; returns how many characters it used (0: incomplete). */
  private escape(): number {
    const buffer = this.buffer;
    if (buffer.length === 1) return 0;
    const second = buffer[1] as string;
    if (PASTE_START.startsWith(buffer) && buffer.length < PASTE_START.length) return 0;
    if (second === "[") {
      const match = /^\u001b\[([0-9;:<>?]*)([\x40-\x7e])/.exec(buffer);
      if (!match) return /^\u001b\[[0-9;:<>?]*$/.test(buffer) ? 0 : this.take(2, key("escape", { sequence: "\u001b[" }));
      if (match[0] === "\u001b[M") {
        // X10 mouse report: three raw bytes follow.
        if (buffer.length < 6) return 0;
        this.buffer = buffer.slice(6);
        return 6;
      }
      const sequence = match[0];
      const parsed = csiKey((match[1] as string).replace(/:/g, ";"), match[2] as string, sequence);
      this.buffer = buffer.slice(sequence.length);
      if (parsed) this.emit({ type: "key", key: parsed });
      return sequence.length;
    }
    if (second === "O") {
      if (buffer.length < 3) return 0;
      const named = CSI_FINAL_KEYS[buffer[2] as string];
      return this.take(3, named ? key(named, { sequence: buffer.slice(0, 3) }) : key("escape", { sequence: "\u001bO" }));
    }
    if (second === "]" || second === "P" || second === "_") {
      // OSC / DCS / APC replies: drop up to BEL or ST.
      const end = buffer.search(/\u0007|\u001b\\/);
      if (end < 0) return 0;
      const length = end + (buffer[end] === "\u0007" ? 1 : 2);
      this.buffer = buffer.slice(length);
      return length;
    }
    // ESC followed by a key: that key with Alt.
    const [next = ""] = buffer.slice(1);
    const parsed = controlKey(next, true, buffer.slice(0, 1 + next.length));
    return this.take(1 + next.length, parsed);
  }

  private take(length: number, parsed: Key): number {
    this.buffer = this.buffer.slice(length);
    this.emit({ type: "key", key: parsed });
    return length;
  }
}
