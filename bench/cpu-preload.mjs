// CPU-time probe for the bench: `node --import ./bench/cpu-preload.mjs …` with BENCH_CPU_FILE=<file> writes the
// process's user + system CPU time in microseconds at exit: every thread's, so V8's background compilation
// counts. 'exit' comes after Node has waited for its background tasks, so none is still running then.
import { writeFileSync } from "node:fs";

const file = process.env.BENCH_CPU_FILE;
if (file) {
  process.on("exit", () => {
    try {
      const usage = process.resourceUsage();
      writeFileSync(file, `${usage.userCPUTime + usage.systemCPUTime}\n`);
    } catch {
      // measurement only: never change how the program ends
    }
  });
}
