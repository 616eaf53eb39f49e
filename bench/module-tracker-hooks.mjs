// Loader hooks for module-tracker.mjs (runs on Node's hooks thread): records each loaded module's URL.
import { appendFileSync } from "node:fs";

let log;

export function initialize(data) {
  log = data?.log;
}

export async function load(url, context, nextLoad) {
  if (log) {
    try {
      appendFileSync(log, `esm ${url}\n`);
    } catch {
      // measurement only
    }
  }
  return nextLoad(url, context);
}
