/**
 * The gate's decision, as a pure function: (request, policy) → allow | deny | ask, naming what decided.
 * This first version knows read-only tools, read-only shell commands and --allow-all-tools; the rule
 * engine (allow/deny rules, paths, URLs) plugs in here.
 */
import type { PermissionRequest } from "../core/events/index.js";
import { analyzeShellCommand } from "./shell-analysis.js";

export interface PermissionPolicy {
  /** --allow-all-tools / --yolo: approve every tool call. */
  allowAllTools: boolean;
}

export type Verdict = "allow" | "deny" | "ask";

export interface Decision {
  verdict: Verdict;
  /** What decided, for messages and tests: "read-only", "--allow-all-tools", "session approval", … */
  reason: string;
}

/** The key under which "yes, for this session" is remembered for a request. */
export function sessionApprovalKey(request: PermissionRequest): string | undefined {
  switch (request.kind) {
    case "shell": {
      const ids = request.commands.map((command) => command.identifier).filter((id) => id !== "");
      return ids.length > 0 && !request.hasWriteFileRedirection ? `shell:${[...new Set(ids)].sort().join("|")}` : undefined;
    }
    case "write":
      return "write";
    case "read":
      return "read";
    case "url":
      try {
        return `url:${new URL(request.url).origin}`;
      } catch {
        return undefined;
      }
    case "mcp":
      return `mcp:${request.serverName}/${request.toolName}`;
    case "custom-tool":
      return `tool:${request.toolName}`;
    case "memory":
      return "memory";
  }
}

export function decide(request: PermissionRequest, policy: PermissionPolicy, sessionApprovals: ReadonlySet<string> = new Set()): Decision {
  if (request.kind === "read") return { verdict: "allow", reason: "read-only" };
  if (request.kind === "shell" && analyzeShellCommand(request.fullCommandText).readOnly) {
    return { verdict: "allow", reason: "read-only command" };
  }
  if (request.kind === "mcp" && request.readOnly) return { verdict: "allow", reason: "read-only tool" };
  if (policy.allowAllTools) return { verdict: "allow", reason: "--allow-all-tools" };
  const key = sessionApprovalKey(request);
  if (key && sessionApprovals.has(key)) return { verdict: "allow", reason: "approved for this session" };
  return { verdict: "ask", reason: "needs approval" };
}
