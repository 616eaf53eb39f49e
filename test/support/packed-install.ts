/**
 * The package as a user gets it: `npm pack` of the checkout's built dist/ (so `npm test`, which builds first,
 * tests what it built), then `npm install -g --prefix <empty temp> --offline` of that tarball with an empty
 * npm cache. The package has no dependencies, so the install needs no network and nothing cached; if it
 * ever does, the install fails and says why, rather than the tests passing on what a developer has lying
 * around. Done once per test file that asks (one pack, one install), reused by every case in it.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { tempDir } from "./engine-harness.js";

const run = promisify(execFile);

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface PackedFile {
  path: string;
  size: number;
}

export interface PackedInstall {
  tarball: string;
  /** What `npm pack --json` reports: every file and the unpacked size. */
  files: PackedFile[];
  unpackedSize: number;
  /** The empty prefix it was installed into. */
  prefix: string;
  /** `<prefix>/bin/agent`: the command npm put on the PATH (a link to the package's bin/agent.js). */
  bin: string;
  /** The installed package's folder (`<prefix>/lib/node_modules/agent`). */
  packageDir: string;
}

/** Bytes of every file under `dir` (what `du --apparent-size` counts, without the block rounding). */
export function treeBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) bytes += treeBytes(full);
    else if (entry.isFile()) bytes += statSync(full).size;
  }
  return bytes;
}

async function npm(args: string[], cwd: string): Promise<string> {
  // npm's own variables (set when this runs under `npm test`) would bend these commands: leave them out.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  try {
    return (await run("npm", args, { cwd, env, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`npm ${args.join(" ")} failed:\n${stderr || message}`);
  }
}

export async function packAndInstall(): Promise<PackedInstall> {
  if (!existsSync(path.join(REPO_ROOT, "dist", "cli.js"))) {
    throw new Error("dist/ is not built: run `node scripts/build.mjs` (npm test does) before the packed-install test");
  }
  const root = tempDir("agent-packed-");
  // --ignore-scripts: pack the dist/ just built instead of building it again.
  const [report] = JSON.parse(await npm(["pack", "--json", "--ignore-scripts", "--pack-destination", root], REPO_ROOT)) as {
    filename: string;
    files: PackedFile[];
    unpackedSize: number;
  }[];
  if (!report) throw new Error("npm pack printed no report");
  const tarball = path.join(root, report.filename);
  const prefix = path.join(root, "prefix");
  const cache = path.join(root, "npm-cache");
  mkdirSync(prefix);
  mkdirSync(cache);
  await npm(["install", "-g", "--prefix", prefix, "--offline", "--cache", cache, "--no-audit", "--no-fund", tarball], root);
  const packageDir = path.join(prefix, "lib", "node_modules", "agent");
  const bin = path.join(prefix, "bin", "agent");
  if (!existsSync(bin)) throw new Error(`npm install put no bin/agent in ${prefix}`);
  return { tarball, files: report.files, unpackedSize: report.unpackedSize, prefix, bin, packageDir };
}
