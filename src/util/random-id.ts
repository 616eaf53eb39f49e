/**
 * Random identifiers (UUID v4) and bytes from the kernel's random source, /dev/urandom, read 2 KB at a time as
 * Node's own randomUUID buffers its entropy. node:crypto's would set up OpenSSL, ~1.1 MB of a `-p` run's peak RSS
 * (docs/benchmarks.md); both are the operating system's cryptographic randomness. Where there is no /dev/urandom
 * (Windows), node:crypto's.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";

/** Fills `into` with random bytes. */
export type RandomSource = (into: Buffer) => void;

const POOL_BYTES = 128 * 16;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

function kernelRandom(): RandomSource {
  return (into) => {
    const fd = openSync("/dev/urandom", "r");
    try {
      for (let read = 0; read < into.length;) {
        const got = readSync(fd, into, read, into.length - read, null);
        if (got === 0) throw new Error("/dev/urandom returned nothing");
        read += got;
      }
    } finally {
      closeSync(fd);
    }
  };
}

function cryptoRandom(): RandomSource {
  const crypto = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return (into) => crypto.randomFillSync(into);
}

export interface RandomIds {
  randomUUID(): string;
  randomBytes(size: number): Buffer;
}

/** Identifiers drawn from `source`, which is asked for POOL_BYTES at a time. */
export function randomIdsFrom(source: RandomSource): RandomIds {
  const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
  let used = POOL_BYTES;
  const take = (size: number): Buffer => {
    if (size > POOL_BYTES) {
      const bytes = Buffer.allocUnsafe(size);
      source(bytes);
      return bytes;
    }
    if (used + size > POOL_BYTES) {
      source(pool);
      used = 0;
    }
    used += size;
    return pool.subarray(used - size, used);
  };
  return {
    randomUUID() {
      const b = take(16);
      const hex = (from: number, to: number): string => {
        let out = "";
        for (let i = from; i < to; i++) out += HEX[i === 6 ? (b[i]! & 0x0f) | 0x40 : i === 8 ? (b[i]! & 0x3f) | 0x80 : b[i]!];
        return out;
      };
      return `${hex(0, 4)}-${hex(4, 6)}-${hex(6, 8)}-${hex(8, 10)}-${hex(10, 16)}`;
    },
    randomBytes(size) {
      return Buffer.from(take(size));
    },
  };
}

let ids: RandomIds | undefined;
function defaultIds(): RandomIds {
  if (!ids) {
    let source: RandomSource;
    try {
      closeSync(openSync("/dev/urandom", "r"));
      source = kernelRandom();
    } catch {
      source = cryptoRandom();
    }
    ids = randomIdsFrom(source);
  }
  return ids;
}

/** A random UUID, version 4, as node:crypto's randomUUID makes. */
export function randomUUID(): string {
  return defaultIds().randomUUID();
}

/** `size` random bytes, as node:crypto's randomBytes gives. */
export function randomBytes(size: number): Buffer {
  return defaultIds().randomBytes(size);
}
