/**
 * Its own module, not define-tool.ts: that one is in the TUI's first frame's graph (its types and ToolError), which
 * must not load zod (test/ui/first-frame-modules.test.ts).
 */
import { z } from "zod";

/**
 * A built-in tool's parameters, built when a call is first checked against them (or the schema is converted):
 * each zod schema is an object with some fifty closures of its own (~2 KB), and a `-p` run that calls one tool
 * would otherwise build all ~170 of the built-in tools' at start-up (docs/benchmarks.md). The request offers
 * the build's JSON Schema of this very object (builtin-tool-parameters.ts), so building the tools' list does not
 * build them either.
 */
export function lazyParameters<S extends z.ZodType>(build: () => S): z.ZodLazy<S> {
  return z.lazy(build);
}
