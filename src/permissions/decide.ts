/**
 * The gate's decision as one pure function: (facts about a tool call, policy) → allow | deny | ask, naming
 * what decided. Order: deny rules (they win over everything, --allow-all-tools included), the floor, ask
 * rules, then every part of the call must be allowed (read-only, a rule, a flag or an approval); whatever
 * is not is listed as a need, and the answer is ask. What the gate cannot check (opaque commands, writes to
 * git's executable configuration, commands that run files the agent changed in this session) is approved by
 * no rule, and by --allow-all-tools only with no deny rule.
 */
import path from "node:path";
import { agentWrittenCode, describeChange, type ChangedFile } from "./agent-written-code.js";
import { type Approvals, type Need } from "./approvals.js";
import type { PermissionFacts } from "./facts.js";
import { checkFloor } from "./floor.js";
import { modeDecision, type ModeRules } from "./mode-rules.js";
import { denyRuleInForce, opaqueReasons } from "./opaque.js";
export type { ModeRules } from "./mode-rules.js";
import { globMayMatchRule, pathRuleMatches, shellRuleMatches, urlOrigin, urlRuleMatches, type Rule, type RuleAction } from "./rules.js";

export interface PermissionPolicy {
  rules: readonly Rule[];
  /** --allow-all-tools: every tool call, except what deny rules and the floor refuse. */
  allowAllTools: boolean;
  /** --allow-all-paths: no path gate. */
  allowAllPaths: boolean;
  /** --allow-all-urls: no URL gate. */
  allowAllUrls: boolean;
  /** "Yes for this session" and "yes, always here" answers. */
  approvals: Approvals;
  disabledFloorChecks: ReadonlySet<string>;
  /** The rules the session's mode contributes (plan mode: nothing is written but its plan file). */
  mode?: ModeRules;
  /**
   * Folders of the session's own files (resolved paths: its research reports): the file tools write inside
   * them without asking, in any mode that lets them write. Deny rules and the floor still apply.
   */
  ownFolders?: readonly string[];
  /**
   * settings.json `mcp.autoApproveReadOnly`: an MCP tool its server marks read-only (annotations.readOnlyHint)
   * needs no approval, on every server (`true`) or on those named. The hint is the server's word, so this is
   * the user's opt-in; deny and ask rules are checked before it.
   */
  mcpReadOnly?: true | readonly string[];
  /**
   * Read-only is not approval enough: a read-only command and a file read are asked like any other call unless
   * a rule, an approval or a flag allows them. The SDK face's preset: Copilot asks an app about every command
   * and read it has not allowed (the broker still approves them when nobody can be asked).
   */
  askReadOnly?: boolean;
}

/** Whether the call is an MCP tool marked read-only on a server the user lets such tools run without asking. */
function readOnlyMcpApproved(facts: PermissionFacts, policy: PermissionPolicy): boolean {
  const { request } = facts;
  if (request.kind !== "mcp" || !request.readOnly || policy.mcpReadOnly === undefined) return false;
  return policy.mcpReadOnly === true || policy.mcpReadOnly.includes(request.serverName);
}

export type Decision =
  | { verdict: "allow"; reason: string }
  | { verdict: "deny"; reason: string; rule?: Rule; floorCheck?: string }
  | { verdict: "ask"; reason: string; needs: Need[]; rule?: Rule };

/** The rule family follows what the call does (its permission request's kind), never the tool's name. */
const isFileWrite = (facts: PermissionFacts) => facts.request.kind === "write";
const isFileRead = (facts: PermissionFacts) => facts.request.kind === "read";

/**
 * The name a call is approved by: a change to the memory stores is `memory` whichever tool makes it
 * (`--allow-tool memory`, one "yes for this session"); any other call, its tool's name.
 */
const approvalName = (facts: PermissionFacts): string => (facts.request.kind === "memory" ? "memory" : facts.toolName);

/** Whether a rule covers (some part of) the call. */
function ruleCovers(rule: Rule, facts: PermissionFacts, action: RuleAction): boolean {
  const { target } = rule;
  switch (target.kind) {
    case "named": {
      const request = facts.request;
      // An MCP tool answers to its server (`github`, `github(list_issues)`) and to the name the model sees (`github-list_issues`).
      if (request.kind === "mcp")
        return target.name === request.serverName
          ? target.inner === undefined || target.inner === request.toolName
          : target.inner === undefined && target.name === facts.toolName;
      return (
        target.inner === undefined &&
        (target.name === facts.toolName || target.name === approvalName(facts) || (target.name === "shell" && facts.toolName === "bash"))
      );
    }
    case "shell":
      return (facts.shell?.analysis.segments ?? []).some((segment) =>
        shellRuleMatches(target, [path.basename(segment.argv[0] ?? ""), ...segment.argv.slice(1)], segment.identifier, action),
      );
    case "write":
    case "read": {
      const sameFamily = target.kind === "write" ? isFileWrite(facts) : isFileRead(facts);
      const accesses = target.kind === "write" ? ["write", "modify"] : ["read"];
      if (target.path === undefined) {
        // Bare `write` covers the file tools and what shell commands write or change; bare `read` only the read tools.
        return sameFamily || (target.kind === "write" && facts.paths.some((mention) => mention.access !== "read"));
      }
      const rulePath = target.path;
      // An allow rule's relative path is relative to the workspace; deny and ask rules match anywhere.
      const anchor = action === "allow" ? facts.workspace : undefined;
      return facts.paths.some(
        (mention) =>
          accesses.includes(mention.access) &&
          ((mention.resolved !== undefined && pathRuleMatches(rulePath, mention.resolved, anchor)) ||
            (action === "deny" && mention.glob !== undefined && globMayMatchRule(rulePath, mention.glob))),
      );
    }
    case "url":
      return facts.urls.some((url) => urlRuleMatches(target.pattern, url, action));
  }
}

function describeRule(rule: Rule): string {
  return `\`${rule.text}\` (${rule.source})`;
}

function allowedBy(policy: PermissionPolicy, matches: (rule: Rule) => boolean): Rule | undefined {
  return policy.rules.find((rule) => rule.action === "allow" && matches(rule));
}

/** What the call needs that nothing allows yet. */
function unmetNeeds(facts: PermissionFacts, policy: PermissionPolicy): Need[] {
  const { approvals } = policy;
  const needs: Need[] = [];
  const toolAllowed =
    policy.allowAllTools ||
    approvals.tools.has(approvalName(facts)) ||
    readOnlyMcpApproved(facts, policy) ||
    Boolean(allowedBy(policy, (rule) => rule.target.kind === "named" && ruleCovers(rule, facts, "allow")));
  const writeAllowed = (resolved: string | undefined) =>
    toolAllowed ||
    (resolved !== undefined && approvals.writes.has(resolved)) ||
    Boolean(
      allowedBy(
        policy,
        (rule) =>
          rule.target.kind === "write" &&
          (rule.target.path === undefined || (resolved !== undefined && pathRuleMatches(rule.target.path, resolved, facts.workspace))),
      ),
    );

  // What cannot be checked is approved by no rule, and by --allow-all-tools only while no deny rule is in force.
  const opaque = opaqueReasons(facts);
  const deny = denyRuleInForce(policy.rules);
  if (!(policy.allowAllTools && !deny)) {
    const why = policy.allowAllTools
      ? `its effect cannot be checked against the deny rule ${describeRule(deny as Rule)}, so --allow-all-tools does not approve it`
      : "its effect cannot be checked, so no allow rule approves it";
    for (const reason of opaque) needs.push({ kind: "confirm", reason: `${reason} (${why})` });
  }

  if (facts.shell) {
    const { analysis } = facts.shell;
    for (const reason of analysis.unparsed) needs.push({ kind: "confirm", reason: `the command could not be analysed: ${reason}` });
    const written = agentCodeNeeds(facts, policy, deny);
    needs.push(...written.values());
    for (const [index, segment] of analysis.segments.entries()) {
      if (written.has(index)) continue;
      if (segment.transparent || (segment.readOnly && !policy.askReadOnly) || toolAllowed || approvals.commands.has(segment.identifier)) continue;
      const argv = [path.basename(segment.argv[0] ?? ""), ...segment.argv.slice(1)];
      if (allowedBy(policy, (rule) => rule.target.kind === "shell" && shellRuleMatches(rule.target, argv, segment.identifier, "allow"))) continue;
      if (!needs.some((need) => need.kind === "command" && need.identifier === segment.identifier))
        needs.push({ kind: "command", identifier: segment.identifier });
    }
    for (const mention of facts.paths) {
      if (mention.access === "write" && !writeAllowed(mention.resolved))
        needs.push({ kind: "write", path: mention.resolved ?? mention.text, ...(mention.resolved ? { resolved: mention.resolved } : {}) });
    }
  } else if (isFileWrite(facts)) {
    const target = facts.paths.find((mention) => mention.access === "write");
    if (!writeAllowed(target?.resolved) && !inOwnFolder(policy, target?.resolved))
      needs.push({ kind: "write", ...(target ? { path: target.resolved ?? target.text, ...(target.resolved ? { resolved: target.resolved } : {}) } : {}) });
  } else if (isFileRead(facts)) {
    const readAllowed = Boolean(allowedBy(policy, (rule) => rule.target.kind === "read" && ruleCovers(rule, facts, "allow")));
    if (policy.askReadOnly && !toolAllowed && !readAllowed) needs.push({ kind: "tool", name: approvalName(facts) });
  } else if (facts.request.kind !== "url" && !toolAllowed) {
    needs.push({ kind: "tool", name: approvalName(facts) });
  }

  // No rule lifts the path gate (a rule says what, the allowed directories say where): --add-dir does.
  for (const mention of facts.paths) {
    if (mention.inside || policy.allowAllPaths) continue;
    if (mention.resolved && approvals.paths.has(mention.resolved)) continue;
    if (!needs.some((need) => need.kind === "path" && need.text === mention.text))
      needs.push({ kind: "path", text: mention.text, ...(mention.resolved ? { resolved: mention.resolved } : {}) });
  }

  for (const url of facts.urls) {
    const origin = urlOrigin(url);
    if (policy.allowAllUrls || (origin && approvals.origins.has(origin))) continue;
    if (allowedBy(policy, (rule) => rule.target.kind === "url" && urlRuleMatches(rule.target.pattern, url))) continue;
    needs.push({ kind: "url", url, ...(origin ? { origin } : {}) });
  }
  // URLs only known when the command runs: no rule names them, and no deny rule can be checked against them.
  const unknownUrls = facts.shell?.analysis.unknownUrls ?? [];
  const everyUrl = policy.allowAllUrls || Boolean(allowedBy(policy, (rule) => rule.target.kind === "url" && rule.target.pattern === undefined));
  if (!everyUrl) for (const reason of unknownUrls) needs.push({ kind: "url", url: reason });
  const urlDeny = policy.rules.find((rule) => rule.action === "deny" && rule.target.kind === "url");
  if (urlDeny) {
    for (const reason of [...unknownUrls, ...(facts.shell?.analysis.follows ?? [])])
      needs.push({ kind: "confirm", reason: `${reason}: the deny rule ${describeRule(urlDeny)} cannot be checked against where it goes` });
  }
  return needs;
}

/**
 * Commands that run what the agent wrote in this session (package scripts, a Makefile, a git hook, a script),
 * by segment: no rule or earlier approval covers them, only a person now, or --allow-all-tools while no deny
 * rule is in force (a deny rule cannot be checked against what the files do).
 */
function agentCodeNeeds(facts: PermissionFacts, policy: PermissionPolicy, deny: Rule | undefined): Map<number, Need> {
  const needs = new Map<number, Need>();
  if (!facts.shell || (policy.allowAllTools && !deny)) return needs;
  const changed: ChangedFile[] = [...(facts.changedFiles ?? []), ...(facts.changes ?? []).map((change) => ({ ...change, byUser: false }))];
  const why = policy.allowAllTools
    ? `--allow-all-tools does not approve it while the deny rule ${describeRule(deny as Rule)} is in force`
    : "a rule approves a command as it was, not code the agent wrote; a person must approve it, or the change to the file when it is made";
  facts.shell.analysis.segments.forEach((segment, index) => {
    if (segment.transparent || segment.readOnly) return;
    const written = agentWrittenCode(segment.argv, facts.shell?.dirs?.[index], changed, facts);
    if (written.length === 0) return;
    const files = [...new Set(written.map(describeChange))].join(", ");
    needs.set(index, { kind: "confirm", reason: `\`${segment.identifier}\` is defined by ${files}, which the agent changed in this session (${why})` });
  });
  return needs;
}

/** Whether a file tool writes inside one of the session's own folders. */
function inOwnFolder(policy: PermissionPolicy, resolved: string | undefined): boolean {
  if (resolved === undefined) return false;
  return (policy.ownFolders ?? []).some((folder) => {
    const relative = path.relative(folder, resolved);
    return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  });
}

export function describeNeed(need: Need): string {
  switch (need.kind) {
    case "command":
      return `\`${need.identifier}\` needs approval`;
    case "write":
      return need.path ? `writing ${need.path} needs approval` : "writing files needs approval";
    case "path":
      return need.resolved ? `${need.resolved} is outside the allowed directories` : `the path "${need.text}" is only known when the command runs`;
    case "url":
      // A URL only known at run time is described by the reason the analysis gave.
      return /^[a-z][a-z0-9+.-]*:\/\//i.test(need.url) ? `${need.origin ?? need.url} is not an allowed URL` : need.url;
    case "tool":
      return need.name === "memory" ? "changing the memories needs approval" : `the tool ${need.name} needs approval`;
    case "confirm":
      return need.reason;
  }
}

export function decide(facts: PermissionFacts, policy: PermissionPolicy): Decision {
  const deny = policy.rules.find((rule) => rule.action === "deny" && ruleCovers(rule, facts, "deny"));
  if (deny) return { verdict: "deny", reason: `Permission to run this tool was denied due to the following rules: ${describeRule(deny)}`, rule: deny };

  const byMode = policy.mode ? modeDecision(facts, policy.mode) : undefined;
  if (byMode) return byMode;

  const floor = checkFloor(facts, policy.disabledFloorChecks);
  if (floor?.verdict === "deny") {
    return {
      verdict: "deny",
      reason: `Refused: ${floor.reason}. This safety check ("${floor.check}") applies even with --yolo; it can be switched off in settings.json under permissions.floor.disable.`,
      floorCheck: floor.check,
    };
  }

  const ask = policy.rules.find((rule) => rule.action === "ask" && ruleCovers(rule, facts, "ask"));
  const needs = unmetNeeds(facts, policy);
  if (floor) needs.unshift({ kind: "confirm", reason: floor.reason });
  if (ask) return { verdict: "ask", reason: `the rule ${describeRule(ask)} asks for approval`, needs, rule: ask };
  if (needs.length > 0) return { verdict: "ask", reason: needs.map(describeNeed).join("; "), needs };

  const allowRule = policy.rules.find((rule) => rule.action === "allow" && ruleCovers(rule, facts, "allow"));
  const reason =
    (facts.shell?.analysis.readOnly || isFileRead(facts)) && !policy.askReadOnly
      ? "read-only"
      : facts.shell && facts.shell.analysis.segments.length === 0
        ? "nothing in it needs approval"
        : allowRule
          ? `allowed by ${describeRule(allowRule)}`
          : readOnlyMcpApproved(facts, policy) && !policy.allowAllTools
            ? "read-only by its server's hint (settings.json mcp.autoApproveReadOnly)"
            : policy.allowAllTools
              ? "--allow-all-tools"
              : isFileWrite(facts) && inOwnFolder(policy, facts.paths.find((mention) => mention.access === "write")?.resolved)
                ? "the session's own folder"
                : "approved earlier";
  return { verdict: "allow", reason };
}
