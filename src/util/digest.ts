/**
 * SHA-256 digests. A short input (a cache key, a lock token, a memory's location) is hashed in JavaScript
 * (@noble/hashes): node:crypto would set up OpenSSL for it, ~2.5 ms and ~1.1 MB of a `-p` run that configures MCP
 * servers (their cached tool lists are named by a digest, docs/benchmarks.md). A long one (a file's snapshot for
 * rewind) goes to node:crypto, required at the first: there OpenSSL's speed outweighs its set-up. Both give the
 * same digest.
 */
import { createRequire } from "node:module";
import { sha256 } from "@noble/hashes/sha2";
import { bytesToHex } from "@noble/hashes/utils";

const requireBuiltin = createRequire(import.meta.url);

/** Above this many bytes (or UTF-16 units) node:crypto hashes faster than its set-up costs. */
const SHORT_INPUT = 16 * 1024;

export function sha256Hex(data: string | Uint8Array): string {
  if (data.length <= SHORT_INPUT) return bytesToHex(sha256(typeof data === "string" ? Buffer.from(data, "utf8") : data));
  return (requireBuiltin("node:crypto") as typeof import("node:crypto")).createHash("sha256").update(data).digest("hex");
}
