/**
 * Evaluates one permission request exactly as the broker does (gather facts with the real shell analysis
 * and path gate, then the pure decision), for table tests and the bypass corpus.
 */
import { realpathSync } from "node:fs";
import type { Settings } from "../../src/config/settings.js";
import type { PermissionRequest } from "../../src/protocol/events/index.js";
import type { ChangedFile } from "../../src/permissions/agent-written-code.js";
import { emptyApprovals, type Approvals } from "../../src/permissions/approvals.js";
import { decide, type Decision, type ModeRules } from "../../src/permissions/decide.js";
import { gatherFacts } from "../../src/permissions/gather-facts.js";
import { PathGate } from "../../src/permissions/paths.js";
import { buildRules, noPermissionFlags, type PermissionFlags } from "../../src/permissions/policy.js";

export interface CheckOptions {
  cwd: string;
  flags?: Partial<PermissionFlags>;
  settings?: Settings;
  approvals?: Partial<Approvals>;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  /** The mode's ruleset (plan mode's, from src/core/modes.ts). */
  mode?: ModeRules;
  /** Files the agent changed earlier in the session. */
  changedFiles?: readonly ChangedFile[];
  /** The SDK face's preset: read-only commands and file reads are asked unless allowed. */
  askReadOnly?: boolean;
}

export async function checkPermission(request: PermissionRequest, toolName: string, options: CheckOptions): Promise<Decision> {
  const flags: PermissionFlags = { ...noPermissionFlags, ...options.flags };
  const settings = options.settings ?? {};
  const { rules, errors } = buildRules(flags, settings);
  if (errors.length > 0) throw new Error(errors.join("\n"));
  const cwd = realpathSync(options.cwd);
  const gate = new PathGate({ cwd, addDirs: flags.addDir, disallowTempDir: flags.disallowTempDir, homeDir: options.homeDir });
  const { facts } = await gatherFacts(request, toolName, {
    cwd,
    gate,
    env: options.env ?? process.env,
    ...(options.changedFiles ? { changedFiles: options.changedFiles } : {}),
  });
  return decide(facts, {
    rules,
    allowAllTools: flags.allowAllTools,
    allowAllPaths: flags.allowAllPaths,
    allowAllUrls: flags.allowAllUrls,
    approvals: { ...emptyApprovals(), ...options.approvals },
    disabledFloorChecks: new Set(settings.permissions?.floor?.disable ?? []),
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.askReadOnly ? { askReadOnly: true } : {}),
  });
}

/** A shell request as the bash tool makes it. */
export function shell(command: string): PermissionRequest {
  return { kind: "shell", fullCommandText: command, intention: "test", commands: [], possiblePaths: [] };
}

export function checkShell(command: string, options: CheckOptions): Promise<Decision> {
  return checkPermission(shell(command), "bash", options);
}
