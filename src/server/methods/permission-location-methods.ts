/**
 * Kept approvals and folder trust over the SDK. A location's approvals are the engine's (commands: resolve,
 * remember, apply; permissions-config.json in Copilot's format); folder trust is the user's config.json
 * `trustedFolders`, the same list the TUI's trust question writes, so it is read and written here as
 * mcp.config.* edits the user's MCP file. Copilot's approval kinds this agent keeps no approval for (read,
 * write: paths are approved by directory) are refused with the reason.
 */
import { z } from "zod";
import type { Homes } from "../../config/agent-home.js";
import { isFolderTrusted, trustFolder } from "../../config/folder-trust.js";
import type { AppliedLocation, ApprovalGrant } from "../../protocol/commands.js";
import type { PERMISSION_LOCATION_METHODS } from "./permission-location-names.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";

const directorySchema = z.looseObject({ sessionId: z.string(), workingDirectory: z.string() });
const pathSchema = z.looseObject({ sessionId: z.string(), path: z.string().min(1) });
const approvalSchema = z.looseObject({
  sessionId: z.string(),
  locationKey: z.string(),
  approval: z.looseObject({
    kind: z.string(),
    commandIdentifiers: z.array(z.string()).optional(),
    toolName: z.string().nullable().optional(),
    serverName: z.string().optional(),
  }),
});

/** Copilot's location approval as this agent's grants (an MCP tool is approved by the name the model sees). */
function grantsOf(approval: z.infer<typeof approvalSchema>["approval"]): ApprovalGrant[] {
  const { kind, commandIdentifiers, toolName, serverName } = approval;
  if (kind === "commands" && commandIdentifiers?.length) return commandIdentifiers.map((value) => ({ kind: "command", value }));
  if (kind === "custom-tool" && toolName) return [{ kind: "tool", value: toolName }];
  if (kind === "mcp" && serverName && toolName) return [{ kind: "tool", value: `${serverName}-${toolName}` }];
  if (kind === "memory") return [{ kind: "tool", value: "memory" }];
  throw new Error(`agent keeps no location approval of kind "${kind}" in this form.`);
}

/** This agent's kept approvals as Copilot's rules: a command is a `shell` rule, a tool a `custom-tool` one. */
const RULE_KIND: Record<AppliedLocation["applied"][number]["kind"], string> = {
  command: "shell",
  tool: "custom-tool",
  url: "url",
  write: "write",
  path: "read",
};

const answered = <T>(result: T | string): T => {
  if (typeof result === "string") throw new Error(result);
  return result;
};

export function permissionLocationMethods(owned: Owned, homes: Homes): MethodTable<(typeof PERMISSION_LOCATION_METHODS)[number]> {
  const session = (link: Parameters<Owned>[0], sessionId: string) => ownedSession(owned, link, sessionId);
  return {
    "session.permissions.locations.resolve": (link, params) => {
      const { sessionId, workingDirectory } = directorySchema.parse(params);
      return answered(session(link, sessionId).dispatch({ type: "resolve_permission_location", workingDirectory }));
    },
    "session.permissions.locations.addToolApproval": (link, params) => {
      const { sessionId, locationKey, approval } = approvalSchema.parse(params);
      const problem = session(link, sessionId).dispatch({ type: "remember_location_approvals", locationKey, add: grantsOf(approval) });
      if (problem) throw new Error(problem);
      return { success: true };
    },
    "session.permissions.locations.apply": (link, params) => {
      const { sessionId, workingDirectory } = directorySchema.parse(params);
      const { applied, ...location } = answered(session(link, sessionId).dispatch({ type: "apply_location_approvals", workingDirectory }));
      const appliedRules = applied.map((rule) => ({ kind: RULE_KIND[rule.kind], argument: rule.value }));
      return { ...location, appliedRuleCount: appliedRules.length, appliedDirectoryCount: 0, appliedRules };
    },
    "session.permissions.folderTrust.isTrusted": (link, params) => {
      const { sessionId, path } = pathSchema.parse(params);
      session(link, sessionId);
      return { trusted: isFolderTrusted(homes, path) };
    },
    "session.permissions.folderTrust.addTrusted": (link, params) => {
      const { sessionId, path } = pathSchema.parse(params);
      session(link, sessionId);
      trustFolder(homes.agentHome, path);
      return { success: true };
    },
  };
}
