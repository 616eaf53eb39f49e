/** How much disk a stored session takes (sessions.getSizes, what pruning and deleting free). */
import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";

/** Bytes under `dir`, symlinks counted as themselves; 0 when it does not exist. */
export function directorySize(dir: string): number {
  let stats;
  try {
    stats = lstatSync(dir);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.size;
  let total = 0;
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return total;
  }
  for (const name of names) total += directorySize(path.join(dir, name));
  return total;
}
