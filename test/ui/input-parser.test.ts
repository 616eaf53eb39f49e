import { describe, expect, it, vi } from "vitest";
import { InputParser } from "../../src/ui/terminal/input-parser.js";
import type { InputEvent } from "../../src/ui/terminal/keys.js";

function parse(...chunks: string[]): InputEvent[] {
  const events: InputEvent[] = [];
  const parser = new InputParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  parser.flush();
  return events;
}

const names = (events: InputEvent[]) =>
  events.map((event) =>
    event.type === "paste"
      ? `paste:${event.text}`
      : `${event.key.ctrl ? "ctrl+" : ""}${event.key.meta ? "meta+" : ""}${event.key.shift && event.key.name !== "char" ? "shift+" : ""}${event.key.name === "char" ? event.key.char : event.key.name}`,
  );

describe("the input parser", () => {
  it("reads characters, control keys and Alt combinations", () => {
    expect(names(parse("hé\r\u0003\u0001\u0017\u007f\t\u001bb"))).toEqual(["h", "é", "enter", "ctrl+c", "ctrl+a", "ctrl+w", "backspace", "tab", "meta+b"]);
  });

  it("reads arrows, shift+tab, modified arrows, delete and home/end in both forms", () => {
    expect(names(parse("\u001b[A\u001b[Z\u001b[1;3D\u001b[1;5C\u001b[3~\u001bOH\u001b[F"))).toEqual([
      "up",
      "shift+tab",
      "meta+left",
      "ctrl+right",
      "delete",
      "home",
      "end",
    ]);
  });

  it("tells shift+enter and ctrl+j from enter", () => {
    expect(names(parse("\u001b[13;2u", "\n", "\r", "\u001b[27;2;13~"))).toEqual(["shift+enter", "ctrl+enter", "enter", "shift+enter"]);
  });

  it("reassembles sequences split across reads, and a lone escape after the wait", () => {
    vi.useFakeTimers();
    try {
      const events: InputEvent[] = [];
      const parser = new InputParser((event) => events.push(event));
      parser.push("\u001b");
      parser.push("[");
      parser.push("B");
      expect(names(events)).toEqual(["down"]);
      parser.push("\u001b");
      expect(events).toHaveLength(1);
      vi.advanceTimersByTime(60);
      expect(names(events)).toEqual(["down", "escape"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("delivers a bracketed paste whole, split markers and multibyte text included", () => {
    const text = "line 1\nlíne 2 🚀\n\u001b[A not a key";
    const marked = `\u001b[200~${text}\u001b[201~`;
    const chunks = [marked.slice(0, 3), marked.slice(3, 20), marked.slice(20, marked.length - 2), marked.slice(-2)];
    expect(parse(...chunks)).toEqual([{ type: "paste", text }]);
  });

  it("keeps a 5 MB paste byte for byte, in 64 KB reads", () => {
    const text = "x".repeat(5 * 1024 * 1024 - 3) + "\nend";
    const marked = `\u001b[200~${text}\u001b[201~`;
    const chunks: string[] = [];
    for (let offset = 0; offset < marked.length; offset += 65536) chunks.push(marked.slice(offset, offset + 65536));
    const events = parse(...chunks);
    expect(events).toHaveLength(1);
    expect(events[0]?.type === "paste" && events[0].text === text).toBe(true);
  });

  it("delivers a paste whose end marker never comes after the timeout, and keys work again", () => {
    vi.useFakeTimers();
    try {
      const events: InputEvent[] = [];
      const parser = new InputParser((event) => events.push(event), { pasteTimeoutMs: 500 });
      parser.push("\u001b[200~half a paste");
      vi.advanceTimersByTime(600);
      parser.push("a");
      expect(names(events)).toEqual(["paste:half a paste", "a"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("drops terminal replies: focus, cursor position, device attributes, OSC, mouse", () => {
    expect(names(parse("a\u001b[I\u001b[O\u001b[12;40R\u001b[?62;22c\u001b]11;rgb:0000/0000/0000\u0007\u001b[<0;10;5M\u001b[Mabcb"))).toEqual(["a", "b"]);
  });
});
