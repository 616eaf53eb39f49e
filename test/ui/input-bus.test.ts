import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { InputBus } from "../../src/ui/terminal/input-bus.js";

describe("the input bus", () => {
  it("holds keys until released, then delivers them in order", () => {
    const bus = new InputBus();
    const seen: string[] = [];
    const release = bus.hold();
    bus.type("ab");
    bus.onKey((key) => {
      seen.push(key.char);
      return true;
    }, 0);
    expect(seen).toEqual([]);
    release();
    release(); // a second release changes nothing
    bus.type("c");
    expect(seen).toEqual(["a", "b", "c"]);
  });

  it("reads a line feed in the first read (typed before raw mode) as Enter, later ones as Ctrl+J", async () => {
    const bus = new InputBus();
    const stream = new PassThrough();
    const keys: string[] = [];
    bus.onKey((key) => {
      keys.push(key.name === "enter" ? (key.ctrl ? "ctrl+j" : "enter") : key.char);
      return true;
    }, 0);
    const detach = bus.attach(stream);
    stream.write("hi\n");
    await new Promise((resolve) => setImmediate(resolve));
    stream.write("\n");
    await new Promise((resolve) => setImmediate(resolve));
    detach();
    expect(keys).toEqual(["h", "i", "enter", "ctrl+j"]);
  });
});
