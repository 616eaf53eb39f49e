/**
 * The few promise-returning file functions the tools use, made from node:fs's callback ones. node:fs/promises would
 * do the same, but loading it sets up Node's FileHandle, fs.watch and readline modules with it (~0.5 MB of a `-p`
 * run's peak RSS, docs/benchmarks.md), none of which the tools need. Same results and the same errors (code,
 * syscall, path) as node:fs/promises.
 */
import fs from "node:fs";
import type * as fsPromises from "node:fs/promises";
import { promisify } from "node:util";

export const readFile = promisify(fs.readFile) as typeof fsPromises.readFile;
export const writeFile = promisify(fs.writeFile) as typeof fsPromises.writeFile;
export const readdir = promisify(fs.readdir) as typeof fsPromises.readdir;
export const stat = promisify(fs.stat) as typeof fsPromises.stat;
export const mkdir = promisify(fs.mkdir) as typeof fsPromises.mkdir;
export const access = promisify(fs.access) as typeof fsPromises.access;

const open = promisify(fs.open);
const close = promisify(fs.close);
const read = promisify(fs.read);

/** Up to `length` bytes of the file from its start (fewer when it is shorter). */
export async function readHead(file: string, length: number): Promise<Buffer> {
  const fd = await open(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await read(fd, buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await close(fd);
  }
}
