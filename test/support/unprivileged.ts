/**
 * File permissions as an ordinary user meets them. Root ignores them (a 0555 folder is writable to root), so
 * a test running as root runs the agent as `nobody` and hands it the folders it needs; as any other user it
 * runs the agent as itself.
 */
import { chownSync, lstatSync, readdirSync } from "node:fs";
import path from "node:path";

const NOBODY = { uid: 65534, gid: 65534 };

/** Whom to run the agent as, so that permissions apply to it. */
export function unprivilegedUser(): { uid: number; gid: number } | undefined {
  return process.getuid?.() === 0 ? NOBODY : undefined;
}

/** Makes `dir` (and what is in it) belong to that user, when it is not the test's own. */
export function handOver(dir: string): void {
  const user = unprivilegedUser();
  if (!user) return;
  const stats = lstatSync(dir);
  if (stats.isSymbolicLink()) return;
  chownSync(dir, user.uid, user.gid);
  if (!stats.isDirectory()) return;
  for (const entry of readdirSync(dir)) handOver(path.join(dir, entry));
}
