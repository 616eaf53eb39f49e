/**
 * What `npm pack` ships: the bundle plus the tree-sitter runtime and bash grammar the shell analysis loads,
 * nothing that is also bundled, no native binaries, and a program that runs with no node_modules at all.
 * Needs dist/ (built by `npm test` before vitest runs).
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { agentEnv, collect } from "../support/run-agent.js";
import { startScriptedServer, text, toolCall, type ScriptedServer } from "../support/scripted-server.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const MAX_INSTALLED_BYTES = 20 * 1024 * 1024;

interface PackedFile {
  path: string;
  size: number;
}
interface PackReport {
  unpackedSize: number;
  files: PackedFile[];
}

function packDryRun(): PackReport {
  // --ignore-scripts: pack the dist/ that is already built instead of rebuilding it here.
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const [report] = JSON.parse(out) as PackReport[];
  if (!report) throw new Error("npm pack printed no report");
  return report;
}

describe("the packed package", () => {
  it("has no runtime dependencies: the bundle carries them", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { dependencies?: Record<string, string> };
    expect(Object.keys(pkg.dependencies ?? {})).toEqual([]);
  });

  it("ships only the bash grammar, no native binaries, no source maps, and stays under 20 MB", () => {
    const report = packDryRun();
    const files = report.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "bin/agent.js",
        "dist/cli.js",
        "dist/tree-sitter/tree-sitter.cjs",
        "dist/tree-sitter/tree-sitter.wasm",
        "dist/tree-sitter/tree-sitter-bash.wasm",
        "dist/sql/sql-wasm.cjs",
        "dist/sql/sql-wasm.wasm",
      ]),
    );
    expect(files.filter((file) => file.endsWith(".wasm")).sort()).toEqual([
      "dist/sql/sql-wasm.wasm",
      "dist/tree-sitter/tree-sitter-bash.wasm",
      "dist/tree-sitter/tree-sitter.wasm",
    ]);
    expect(files.filter((file) => file.endsWith(".node") || file.endsWith(".map"))).toEqual([]);
    expect(report.unpackedSize).toBeLessThan(MAX_INSTALLED_BYTES);
  });
});

describe("the built program without node_modules", () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it("judges a shell command with its own tree-sitter copy and runs it", async () => {
    // A copy of what npm installs, in a temp dir with no node_modules anywhere above it.
    const install = tempDir("agent-install-");
    for (const entry of ["bin", "dist", "package.json"]) cpSync(path.join(ROOT, entry), path.join(install, entry), { recursive: true });
    const cwd = tempDir("agent-install-cwd-");
    writeFileSync(path.join(cwd, "marker.txt"), "x\n");
    server.enqueue(toolCall("bash", { command: "ls", description: "List files" }), text("Listed."));
    const child = spawn(process.execPath, [path.join(install, "bin/agent.js"), "-p", "list the files", "--allow-tool", "shell(ls)"], {
      cwd,
      env: agentEnv({ home: tempDir("agent-install-home-"), baseUrl: server.baseUrl }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const run = await collect(child);
    expect(run.stderr).not.toContain("could not start");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Listed.");
    expect(run.stderr).toContain("marker.txt");
  });

  it("runs the sql tool with its own sql.js copy", async () => {
    const install = tempDir("agent-install-");
    for (const entry of ["bin", "dist", "package.json"]) cpSync(path.join(ROOT, entry), path.join(install, entry), { recursive: true });
    server.enqueue(
      toolCall("sql", { description: "Add a todo", query: "INSERT INTO todos (id, title) VALUES ('t1', 'First'); SELECT id, title, status FROM todos" }),
      text("Added."),
    );
    const child = spawn(process.execPath, [path.join(install, "bin/agent.js"), "-p", "add a todo"], {
      cwd: tempDir("agent-install-cwd-"),
      env: agentEnv({ home: tempDir("agent-install-home-"), baseUrl: server.baseUrl }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const run = await collect(child);
    expect(run.code, run.stderr).toBe(0);
    const result = server.completionRequests[1]?.body.messages.at(-1);
    expect(String(result?.content)).toContain("| t1 | First | pending |");
  });
});
