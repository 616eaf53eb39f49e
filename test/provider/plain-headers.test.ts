/**
 * PlainHeaders (src/provider/plain-headers.ts) stands in for the global Headers inside openai and the
 * node:http fetch, so a request is built without loading undici: for every operation the clients use it must
 * agree with the real Headers, and `instanceof` must accept either without touching the global.
 */
import { describe, expect, it } from "vitest";
import { PlainHeaders } from "../../src/provider/plain-headers.js";

/** What both offer (the project's lib has no iterable DOM types, so the real one is read through this). */
interface Listing {
  append(name: string, value: string): void;
  set(name: string, value: string): void;
  delete(name: string): void;
  get(name: string): string | null;
  has(name: string): boolean;
  getSetCookie(): string[];
  forEach(callback: (value: string, name: string) => void): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
const real = (init?: unknown) => new Headers(init as HeadersInit) as unknown as Listing;

type Operation = (headers: Listing) => void;

const scripts: [string, Operation[]][] = [
  ["append in any case, sorted listing", [(h) => h.append("X-B", "1"), (h) => h.append("content-type", "application/json"), (h) => h.append("x-a", "2")]],
  ["a repeated name joined", [(h) => h.append("Accept", "a"), (h) => h.append("accept", "b")]],
  [
    "set replaces, delete removes",
    [(h) => h.append("x-a", "1"), (h) => h.append("x-a", "2"), (h) => h.set("X-A", "3"), (h) => h.append("x-b", "1"), (h) => h.delete("X-B")],
  ],
  ["values trimmed", [(h) => h.append("x-a", "  padded\t"), (h) => h.set("x-b", " b ")]],
  ["set-cookie listed once per value", [(h) => h.append("Set-Cookie", "a=1"), (h) => h.append("set-cookie", "b=2"), (h) => h.append("x", "y")]],
  ["numbers become strings", [(h) => h.append("content-length", 42 as unknown as string)]],
];

function observe(headers: Listing): unknown {
  const forEach: [string, string][] = [];
  headers.forEach((value, name) => forEach.push([name, value]));
  return {
    entries: [...headers.entries()],
    iterated: [...headers],
    keys: [...headers.keys()],
    values: [...headers.values()],
    forEach,
    gets: ["x-a", "X-A", "accept", "set-cookie", "missing", "content-length"].map((name) => headers.get(name)),
    has: ["x-a", "X-B", "missing"].map((name) => headers.has(name)),
    cookies: headers.getSetCookie(),
  };
}

describe("PlainHeaders", () => {
  it.each(scripts)("agrees with the real Headers: %s", (_name, operations) => {
    const theirs = real();
    const plain = new PlainHeaders();
    for (const operation of operations) {
      operation(theirs);
      operation(plain);
    }
    expect(observe(plain)).toEqual(observe(theirs));
  });

  it.each([
    ["a record", { "X-One": "1", accept: "a" }],
    [
      "pairs",
      [
        ["X-One", "1"],
        ["x-one", "2"],
        ["Accept", "a"],
      ] as [string, string][],
    ],
    [
      "a real Headers",
      new Headers([
        ["X-One", "1"],
        ["b", "2"],
      ]),
    ],
  ])("is made from %s as the real one is", (_name, init) => {
    expect(observe(new PlainHeaders(init))).toEqual(observe(real(init)));
  });

  it("is read by the real Headers as the same headers", () => {
    const plain = new PlainHeaders({ "X-One": "1", accept: "a" });
    plain.append("accept", "b");
    expect([...real(plain)]).toEqual([...plain]);
  });

  it("answers instanceof for either kind, and for nothing else", () => {
    expect(new PlainHeaders() instanceof PlainHeaders).toBe(true);
    expect(new Headers() instanceof PlainHeaders).toBe(true);
    expect({} instanceof PlainHeaders).toBe(false);
    expect((null as unknown as object) instanceof PlainHeaders).toBe(false);
    expect(new Map() instanceof PlainHeaders).toBe(false);
    expect(Object.prototype.toString.call(new PlainHeaders())).toBe("[object Headers]");
  });
});
