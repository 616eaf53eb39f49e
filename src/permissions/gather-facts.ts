/**
 * Gathers what the decision needs about a tool call: the shell command's analysis, every path it touches
 * checked by the path gate (realpath), its URLs. The I/O lives here so that decide() can stay pure.
 */
import { statSync } from "node:fs";
import path from "node:path";
import type { PermissionRequest } from "../protocol/events/index.js";
import type { ChangedFile, FileChange } from "./agent-written-code.js";
import type { PermissionFacts } from "./facts.js";
import { findGitRoot } from "../util/git-root.js";
import { resolvePhysical, type CheckedPath, type PathGate } from "./paths.js";
import { analyzeShellCommand } from "./shell/analyze.js";
import { loadGitAliases, loadGitCodeDirs } from "./shell/git-aliases.js";
import { programName } from "./shell/read-only.js";

export interface FactsEnvironment {
  cwd: string;
  gate: PathGate;
  env: NodeJS.ProcessEnv;
  /** The files the agent changed earlier in this session. */
  changedFiles?: readonly ChangedFile[];
}

function isDirectory(resolved: string): boolean {
  try {
    return statSync(resolved).isDirectory();
  } catch {
    return false;
  }
}

/** What a call writes: a file, or a directory it writes files of unknown names under (a glob, a copy into it). */
function changesOf(paths: readonly CheckedPath[], unnamedDirs: readonly string[] = []): FileChange[] {
  const changes = paths.flatMap((checked): FileChange[] =>
    checked.access === "read" || checked.resolved === undefined
      ? []
      : [{ path: checked.resolved, ...(checked.glob !== undefined || isDirectory(checked.resolved) ? { anyName: true } : {}) }],
  );
  return [...changes, ...unnamedDirs.map((dir) => ({ path: dir, anyName: true }))];
}

/** The facts, and the request with the analysis filled in (commands, paths, URLs) for the UI. */
export async function gatherFacts(
  request: PermissionRequest,
  toolName: string,
  environment: FactsEnvironment,
): Promise<{ facts: PermissionFacts; request: PermissionRequest }> {
  const { gate, cwd } = environment;
  const git = request.kind === "shell" || request.kind === "write" ? loadGitCodeDirs(cwd, environment.env) : undefined;
  // The workspace as the path gate sees it: the git root of the working directory, links resolved.
  const workspace = resolvePhysical(path.resolve(findGitRoot(gate.options.cwd)?.root ?? gate.options.cwd));
  const base = {
    toolName,
    homeDir: gate.homeDir,
    roots: gate.roots,
    workspace,
    ...(git ? { git } : {}),
    ...(environment.changedFiles ? { changedFiles: environment.changedFiles } : {}),
  };
  switch (request.kind) {
    case "shell": {
      const analysis = await analyzeShellCommand(request.fullCommandText, {
        gitAliases: loadGitAliases(cwd, environment.env),
        env: environment.env,
        homeDir: gate.homeDir,
      });
      const paths = analysis.paths.map((mention) => gate.check(mention.text, mention.access, { literal: mention.literal, base: mention.base }));
      // What `rm link` removes is the link itself, so its operands are not followed at the last step.
      const operands = analysis.segments.map((segment) =>
        segment.operands.map((operand) =>
          gate.check(operand.text, "read", { literal: operand.literal, base: operand.base, followFinal: programName(segment.argv[0] ?? "") !== "rm" }),
        ),
      );
      const enriched: PermissionRequest = {
        ...request,
        commands: analysis.segments.filter((segment) => !segment.transparent).map(({ identifier, readOnly }) => ({ identifier, readOnly })),
        possiblePaths: [...new Set(analysis.paths.map((mention) => mention.text))],
        possibleUrls: analysis.urls,
        hasWriteFileRedirection: analysis.paths.some((mention) => mention.access === "write"),
      };
      // Where a command writes files it does not name (tar -x, patch -p1): checked for git's directory below it.
      const unnamedWriteDirs = paths.flatMap((checked, index) => (analysis.paths[index]?.unnamedFiles && checked.resolved ? [checked.resolved] : []));
      const dirs = analysis.segments.map((segment) =>
        segment.directory === undefined ? undefined : resolvePhysical(path.resolve(gate.options.cwd, segment.directory)),
      );
      const shell = { analysis, operands, unnamedWriteDirs, dirs };
      return { facts: { ...base, request: enriched, shell, paths, urls: analysis.urls, changes: changesOf(paths, unnamedWriteDirs) }, request: enriched };
    }
    case "write": {
      const paths = [gate.check(request.fileName, "write")];
      return { facts: { ...base, request, paths, urls: [], changes: changesOf(paths) }, request };
    }
    case "read":
      return { facts: { ...base, request, paths: [gate.check(request.path, "read")], urls: [] }, request };
    case "url":
      return { facts: { ...base, request, paths: [], urls: [request.url] }, request };
    default:
      return { facts: { ...base, request, paths: [], urls: [] }, request };
  }
}
