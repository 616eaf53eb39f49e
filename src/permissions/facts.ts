/** Everything the decision needs to know about one tool call, gathered (with I/O) before deciding. */
import type { PermissionRequest } from "../protocol/events/index.js";
import type { ChangedFile, FileChange } from "./agent-written-code.js";
import type { CheckedPath } from "./paths.js";
import type { ShellAnalysis } from "./shell/analyze.js";

export interface PermissionFacts {
  toolName: string;
  request: PermissionRequest;
  /** For shell commands: the analysis, and each segment's operands checked by the path gate. */
  shell?: {
    analysis: ShellAnalysis;
    operands: CheckedPath[][];
    unnamedWriteDirs?: string[];
    /** Where each segment runs (resolved), undefined when only known at run time. */
    dirs?: (string | undefined)[];
  };
  /** Every path the call touches, checked by the path gate. */
  paths: CheckedPath[];
  urls: string[];
  homeDir: string;
  /** The allowed directories (the path gate's roots). */
  roots: readonly string[];
  /** The workspace (the git root of the working directory): relative path rules are relative to it. */
  workspace: string;
  /** The repository's git directory and hooks directory (core.hooksPath): writes there become code. */
  git?: { gitDir: string; hooksDir: string };
  /** Files the agent changed earlier in this session (a rule does not approve what they define). */
  changedFiles?: readonly ChangedFile[];
  /** Files this call changes, as the gate resolved them: recorded once it is approved. */
  changes?: FileChange[];
}
