/**
 * A writer process for the concurrency test: loads, says "ready", waits for a line on stdin (so that both
 * writers start together), then stores `count` memories named `<prefix> <n>` in the store of `cwd`.
 */
import { once } from "node:events";
import { MemorySpace } from "../../../src/memory/memory-space.js";

const [home, cwd, prefix, count] = process.argv.slice(2) as [string, string, string, string];
const space = new MemorySpace(home, cwd);
process.stdout.write("ready\n");
await once(process.stdin, "data");
for (let n = 0; n < Number(count); n++) {
  await space.store({ subject: `${prefix} ${n}`, fact: `Written by ${prefix}, number ${n}.`, citations: [], scope: "repository" });
}
process.exit(0);
