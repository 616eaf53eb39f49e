/**
 * Where the package's built-in agents and prompt templates are, apart from the agent-file loader (and its
 * zod schema) so that what only needs the folder (the prompt templates) does not load them.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package's `agents/` folder: found by walking up from this module, which runs from `src/config/`
 * under tsx and from `dist/` (or `dist/chunks/`) once bundled.
 */
export function builtinAgentsDir(from: string = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (;;) {
    if (existsSync(path.join(dir, "package.json")) && existsSync(path.join(dir, "agents"))) return path.join(dir, "agents");
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
