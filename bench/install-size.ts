/**
 * Installed size: `npm pack` the checkout (its current dist/, no rebuild), install the tarball into an empty
 * directory as a user would, and measure that directory's node_modules (disk usage as `du -sk` reports it,
 * and the sum of file sizes).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface InstallSize {
  /** Disk usage in MB (du -sk), or undefined where du is not available. */
  diskMb: number | undefined;
  /** Sum of the installed files' sizes in MB. */
  bytesMb: number;
  tarballMb: number;
  files: number;
}

function walk(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = walk(full);
      bytes += inner.bytes;
      files += inner.files;
    } else if (entry.isFile()) {
      bytes += statSync(full).size;
      files += 1;
    }
  }
  return { bytes, files };
}

function duMb(dir: string): number | undefined {
  try {
    const out = execFileSync("du", ["-sk", dir], { encoding: "utf8" });
    const kb = Number(out.split(/\s/)[0]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export function measureInstallSize(repoRoot: string): InstallSize {
  const root = mkdtempSync(path.join(os.tmpdir(), "agent-bench-install-"));
  try {
    const quiet = { cwd: repoRoot, encoding: "utf8" as const, stdio: ["ignore", "pipe", "ignore"] as ["ignore", "pipe", "ignore"] };
    const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", root], quiet).trim().split("\n").at(-1) ?? "";
    const tarball = path.join(root, packed);
    const app = path.join(root, "app");
    mkdirSync(app);
    writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "bench-install", version: "1.0.0", private: true }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", tarball], { ...quiet, cwd: app });
    const modules = path.join(app, "node_modules");
    const { bytes, files } = walk(modules);
    return { diskMb: duMb(modules), bytesMb: bytes / (1024 * 1024), tarballMb: statSync(tarball).size / (1024 * 1024), files };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
