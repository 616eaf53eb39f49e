// vitest globalSetup: after the run, every temp folder this run made through test/support/temp-dirs.ts must be
// gone (each carries the run's tag, so other runs on the machine do not count). A leftover fails the run.
import { readdirSync } from "node:fs";
import os from "node:os";
import { runTag } from "./support/temp-dirs.js";

export default function setup(): () => void {
  return () => {
    const tag = runTag();
    if (tag === "") return;
    const left = readdirSync(os.tmpdir()).filter((name) => name.includes(tag));
    if (left.length === 0) return;
    const shown = left.slice(0, 20).map((name) => `  ${os.tmpdir()}/${name}`);
    console.error(
      `\nThe run left ${left.length} temp folder(s) behind (made with tempDir, not removed):\n${shown.join("\n")}${left.length > shown.length ? "\n  …" : ""}\n`,
    );
    process.exitCode = 1;
  };
}
