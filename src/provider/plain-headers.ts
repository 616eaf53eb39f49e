/**
 * A Headers with the Fetch standard's behaviour for what the clients do with one (names are
 * case-insensitive and listed lowercase in sorted order, values of a repeated name joined with ", ", leading
 * and trailing whitespace dropped), without touching the global Headers: on Node 20 its first use loads all
 * of undici (~20 ms of CPU), which the request going out over node:http (node-fetch.ts) does not need. The
 * build gives openai this class as its `Headers` (scripts/build.mjs); `instanceof` accepts a real Headers
 * too, by its tag, so nothing has to be loaded to ask.
 */
type HeaderPairs = Iterable<readonly [string, string]> | Record<string, string | readonly string[] | undefined>;

const tag = (value: unknown): string => Object.prototype.toString.call(value);

function normalise(value: unknown): string {
  return String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
}

export class PlainHeaders {
  readonly #values = new Map<string, string[]>();

  constructor(init?: HeaderPairs | { forEach(callback: (value: string, name: string) => void): void } | null) {
    if (init === undefined || init === null) return;
    if (tag(init) === "[object Headers]") {
      (init as { forEach(callback: (value: string, name: string) => void): void }).forEach((value, name) => this.append(name, value));
    } else if (Symbol.iterator in init) {
      for (const [name, value] of init as Iterable<readonly [string, string]>) this.append(name, value);
    } else {
      for (const [name, value] of Object.entries(init as Record<string, unknown>)) {
        if (value !== undefined) this.append(name, value as string);
      }
    }
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return value !== null && typeof value === "object" && tag(value) === "[object Headers]";
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }

  append(name: string, value: unknown): void {
    const key = name.toLowerCase();
    const list = this.#values.get(key);
    if (list) list.push(normalise(value));
    else this.#values.set(key, [normalise(value)]);
  }

  set(name: string, value: unknown): void {
    this.#values.set(name.toLowerCase(), [normalise(value)]);
  }

  delete(name: string): void {
    this.#values.delete(name.toLowerCase());
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase())?.join(", ") ?? null;
  }

  getSetCookie(): string[] {
    return [...(this.#values.get("set-cookie") ?? [])];
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name) as string[];
      // set-cookie is the one name the standard lists once per value.
      if (name === "set-cookie") for (const value of values) yield [name, value];
      else yield [name, values.join(", ")];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, name: string, headers: PlainHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }
}
