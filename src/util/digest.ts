/**
 * SHA-256 digests, with node:crypto required at the first one, not when a module that may make one is set up: it sets
 * up OpenSSL (~1.1 MB of a `-p` run's peak RSS, docs/benchmarks.md), which a run that makes none does not need.
 */
import { createRequire } from "node:module";

const requireBuiltin = createRequire(import.meta.url);

export function sha256Hex(data: string | Uint8Array): string {
  return (requireBuiltin("node:crypto") as typeof import("node:crypto")).createHash("sha256").update(data).digest("hex");
}
