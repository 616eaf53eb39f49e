// Injected into the vendor bundle (scripts/build.mjs) as openai's `Headers` and `FormData`: on Node 20 the
// first use of either global loads all of undici (~20 ms of CPU), and building a JSON request over
// node:http needs neither. Headers is src/provider/plain-headers.ts; FormData is only asked whether a body
// is one (by its tag, as PlainHeaders does), and `new FormData()` still makes the real one.
export { PlainHeaders as Headers } from "../src/provider/plain-headers.ts";

export class FormData {
  constructor() {
    return new globalThis.FormData();
  }

  static [Symbol.hasInstance](value) {
    return value !== null && typeof value === "object" && Object.prototype.toString.call(value) === "[object FormData]";
  }
}
