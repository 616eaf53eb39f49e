/**
 * Routes input to the components that want it. Handlers run from the highest priority down; one that
 * returns true has consumed the key. Production feeds it from stdin through the InputParser; tests feed it
 * directly (press, type, paste).
 */
import { InputParser } from "./input-parser.js";
import { key as makeKey, type InputEvent, type Key } from "./keys.js";

export type KeyHandler = (key: Key) => boolean | void;
export type PasteHandler = (text: string) => boolean | void;

/** Priorities: a dialog beats a popup beats the composer beats app-wide keys. */
export const Priority = { app: 0, composer: 10, popup: 20, dialog: 30 } as const;

interface Entry<H> {
  handler: H;
  priority: number;
  order: number;
}

export class InputBus {
  private readonly keyHandlers: Entry<KeyHandler>[] = [];
  private readonly pasteHandlers: Entry<PasteHandler>[] = [];
  private order = 0;

  onKey(handler: KeyHandler, priority: number): () => void {
    return this.add(this.keyHandlers, handler, priority);
  }

  onPaste(handler: PasteHandler, priority: number): () => void {
    return this.add(this.pasteHandlers, handler, priority);
  }

  private add<H>(list: Entry<H>[], handler: H, priority: number): () => void {
    const entry = { handler, priority, order: this.order++ };
    list.push(entry);
    // Highest priority first; among equals, the latest registered first (the innermost component).
    list.sort((a, b) => b.priority - a.priority || b.order - a.order);
    return () => {
      const index = list.indexOf(entry);
      if (index >= 0) list.splice(index, 1);
    };
  }

  private holds = 0;
  private held: InputEvent[] = [];

  /**
   * Keeps input back until the returned release is called (by every holder, once each): for the moment
   * between a command that opens a dialog and the dialog listening, so keys typed in that moment reach the
   * dialog instead of the prompt. Released anyway after `maxMs`, so input can never be lost to a hold.
   */
  hold(maxMs = 2000): () => void {
    this.holds++;
    let released = false;
    const timer = setTimeout(() => release(), maxMs);
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      this.holds--;
      if (this.holds > 0) return;
      const events = this.held;
      this.held = [];
      for (const event of events) this.dispatch(event);
    };
    return release;
  }

  private readonly observers = new Set<() => void>();

  /** Called for every key and paste before it is routed (run-tui.tsx paints the next commit at once). */
  observe(observer: () => void): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  dispatch(event: InputEvent): void {
    for (const observer of this.observers) observer();
    if (this.holds > 0) {
      this.held.push(event);
      return;
    }
    if (event.type === "paste") {
      for (const { handler } of [...this.pasteHandlers]) if (handler(event.text) === true) return;
      return;
    }
    for (const { handler } of [...this.keyHandlers]) if (handler(event.key) === true) return;
  }

  /**
   * Feeds raw terminal bytes from a stream (stdin in raw mode). Returns a function that stops listening.
   * The first read also holds what was typed before raw mode was on, which the terminal's line discipline
   * has turned into lines: there a line feed is the Enter the user pressed (in raw mode Enter is a carriage
   * return, and a line feed is Ctrl+J), so it is read as Enter.
   */
  attach(stream: NodeJS.ReadableStream): () => void {
    const parser = new InputParser((event) => this.dispatch(event));
    let first = true;
    const onData = (data: Buffer | string) => {
      const text = typeof data === "string" ? data : data.toString("utf8");
      parser.push(first && !text.includes("\u001b[200~") ? text.replace(/\n/g, "\r") : text);
      first = false;
    };
    stream.on("data", onData);
    return () => {
      stream.off("data", onData);
      parser.flush();
    };
  }

  // Helpers for tests and programmatic drivers.
  press(spec: string): void {
    const parts = spec.split("+");
    const last = parts.pop() ?? "";
    const mods = { ctrl: parts.includes("ctrl"), meta: parts.includes("meta") || parts.includes("alt"), shift: parts.includes("shift") };
    const named = ["enter", "tab", "backspace", "delete", "escape", "up", "down", "left", "right", "home", "end", "pageup", "pagedown"];
    this.dispatch({ type: "key", key: named.includes(last) ? makeKey(last as Key["name"], mods) : makeKey("char", { ...mods, char: last }) });
  }

  type(text: string): void {
    for (const char of text) this.dispatch({ type: "key", key: makeKey("char", { char, sequence: char }) });
  }

  paste(text: string): void {
    this.dispatch({ type: "paste", text });
  }
}
