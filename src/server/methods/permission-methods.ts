/**
 * A session's permissions over the SDK: approve-all and unrestricted URLs are the /allow-all switches,
 * rules are "yes for this session" approvals (change_approvals), the allowed directories are /cwd and
 * /add-dir, and the pending questions are the ones the remote-questions adapter still holds. Copilot's rule
 * kinds this agent has no approval for (read, write, memory: its paths are approved by directory) are left
 * out of configure and refused by modifyRules.
 */
import { z } from "zod";
import type { ApprovalGrant } from "../../protocol/commands.js";
import type { PERMISSION_METHODS } from "./session-control-method-names.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";
import { sessionIdOf } from "../wire.js";

const switchSchema = z.looseObject({ sessionId: z.string(), enabled: z.boolean() });
const requiredSchema = z.looseObject({ sessionId: z.string(), required: z.boolean() });
const pathSchema = z.looseObject({ sessionId: z.string(), path: z.string() });
const ruleSchema = z.looseObject({ kind: z.string(), argument: z.string().nullable().optional() });
const modifySchema = z.looseObject({
  sessionId: z.string(),
  scope: z.string(),
  add: z.array(ruleSchema).optional(),
  remove: z.array(ruleSchema).optional(),
  removeAll: z.boolean().optional(),
});
const configureSchema = z.looseObject({
  sessionId: z.string(),
  approveAllToolPermissionRequests: z.boolean().optional(),
  rules: z.looseObject({ approved: z.array(ruleSchema).optional() }).optional(),
  paths: z.looseObject({ workspacePath: z.string().optional(), additionalDirectories: z.array(z.string()).optional() }).optional(),
  urls: z.looseObject({ initialAllowed: z.array(z.string()).optional(), unrestricted: z.boolean().optional() }).optional(),
});

type Rule = z.infer<typeof ruleSchema>;

/** Copilot's rule kinds as this agent's approvals; undefined for a kind it approves otherwise or not at all. */
function grantOf(rule: Rule): ApprovalGrant | undefined {
  if (!rule.argument) return undefined;
  if (rule.kind === "commands" || rule.kind === "shell") return { kind: "command", value: rule.argument };
  if (rule.kind === "url") return { kind: "url", value: rule.argument };
  if (rule.kind === "custom-tool" || rule.kind === "mcp" || rule.kind === "tool") return { kind: "tool", value: rule.argument };
  return undefined;
}

function grantsOf(rules: readonly Rule[] | undefined, strict: boolean): ApprovalGrant[] {
  return (rules ?? []).flatMap((rule) => {
    const grant = grantOf(rule);
    if (!grant && strict) throw new Error(`agent has no session rule of kind "${rule.kind}"${rule.argument ? "" : " without an argument"}.`);
    return grant ? [grant] : [];
  });
}

function done(problem: string | undefined): { success: true } {
  if (problem) throw new Error(problem);
  return { success: true };
}

export function permissionMethods(owned: Owned): MethodTable<(typeof PERMISSION_METHODS)[number]> {
  const session = (link: Parameters<Owned>[0], sessionId: string) => ownedSession(owned, link, sessionId);
  /** A directory tools may use without asking, listed even when an allowed one covers it (as Copilot lists it). */
  const addDirectory = (link: Parameters<Owned>[0], sessionId: string, dir: string) =>
    session(link, sessionId).dispatch({ type: "add_dir", path: dir, listed: true });
  return {
    "session.permissions.setApproveAll": (link, params) => {
      const { sessionId, enabled } = switchSchema.parse(params);
      session(link, sessionId).dispatch({ type: "set_allow_all", on: enabled });
      return { success: true };
    },
    "session.permissions.urls.setUnrestrictedMode": (link, params) => {
      const { sessionId, enabled } = switchSchema.parse(params);
      session(link, sessionId).dispatch({ type: "set_allow_all", on: enabled, only: "urls" });
      return { success: true };
    },
    "session.permissions.pendingRequests": (link, params) => ({ items: owned(link, sessionIdOf(params)).pendingPermissions() }),
    // Whether this client answers permission questions; without one that does, they are refused (fail closed).
    "session.permissions.setRequired": (link, params) => {
      const { sessionId, required } = requiredSchema.parse(params);
      owned(link, sessionId).answersPermissions(link, required);
      return { success: true };
    },
    // The client showed its user a question: nothing changes here (Copilot records it for telemetry).
    "session.permissions.notifyPromptShown": (link, params) => {
      owned(link, sessionIdOf(params));
      return { success: true };
    },
    "session.permissions.modifyRules": (link, params) => {
      const { sessionId, scope, add, remove, removeAll } = modifySchema.parse(params);
      if (scope !== "session") throw new Error(`agent keeps rules given by a client for the session only, not for scope "${scope}".`);
      const engine = session(link, sessionId);
      if (removeAll) engine.dispatch({ type: "reset_allowed_tools" });
      engine.dispatch({ type: "change_approvals", add: grantsOf(add, true), remove: grantsOf(remove, true) });
      return { success: true };
    },
    "session.permissions.configure": (link, params) => {
      const { sessionId, approveAllToolPermissionRequests, rules, paths, urls } = configureSchema.parse(params);
      const engine = session(link, sessionId);
      if (paths?.workspacePath) done(engine.dispatch({ type: "set_cwd", path: paths.workspacePath }));
      for (const dir of paths?.additionalDirectories ?? []) done(addDirectory(link, sessionId, dir));
      if (approveAllToolPermissionRequests !== undefined) engine.dispatch({ type: "set_allow_all", on: approveAllToolPermissionRequests });
      if (urls?.unrestricted !== undefined) engine.dispatch({ type: "set_allow_all", on: urls.unrestricted, only: "urls" });
      const urlGrants = (urls?.initialAllowed ?? []).map((url): ApprovalGrant => ({ kind: "url", value: url }));
      engine.dispatch({ type: "change_approvals", add: [...grantsOf(rules?.approved, false), ...urlGrants] });
      return { success: true };
    },
    "session.permissions.paths.list": (link, params) => {
      const engine = session(link, sessionIdOf(params));
      const { primary, list } = engine.directories();
      return { primary, directories: list };
    },
    "session.permissions.paths.add": (link, params) => {
      const { sessionId, path } = pathSchema.parse(params);
      return done(addDirectory(link, sessionId, path));
    },
    "session.permissions.paths.updatePrimary": (link, params) => {
      const { sessionId, path } = pathSchema.parse(params);
      return done(session(link, sessionId).dispatch({ type: "set_cwd", path }));
    },
    "session.permissions.paths.isPathWithinAllowedDirectories": (link, params) => {
      const { sessionId, path } = pathSchema.parse(params);
      return { allowed: session(link, sessionId).directories().allows(path) };
    },
    "session.permissions.paths.isPathWithinWorkspace": (link, params) => {
      const { sessionId, path } = pathSchema.parse(params);
      return { allowed: session(link, sessionId).directories().contains(path) };
    },
  };
}
