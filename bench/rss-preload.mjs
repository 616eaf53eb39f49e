// Fallback peak-RSS probe for the bench (used only when GNU time is unavailable):
// `node --import ./bench/rss-preload.mjs …` with BENCH_RSS_FILE=<file> writes the process's maximum
// resident set size in KB (process.resourceUsage().maxRSS) to that file when the process exits.
import { writeFileSync } from "node:fs";

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on("exit", () => {
    try {
      writeFileSync(file, `${process.resourceUsage().maxRSS}\n`);
    } catch {
      // measurement only: never change how the program ends
    }
  });
}
