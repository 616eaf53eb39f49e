/**
 * Every tool call passes here. Facts are gathered (shell analysis, path gate), the pure decision says
 * allow, deny or ask; asking goes through the interaction broker, with the answers it offers (worked out
 * here, once), and waits for an answer command; a remembering answer releases the other waiting questions
 * it now covers. With nobody to ask (`agent -p`) the call is denied at once, and the result carries the
 * face's advice on what would allow it (the CLI names its flags): a headless run never waits. Over 300 lines:
 * the session's approvals (given, remembered, released) live with the one check that reads them.
 */
import { randomUUID } from "../util/random-id.js";
import type { FileChange } from "../permissions/agent-written-code.js";
import { ChangedFiles } from "../permissions/changed-files.js";
import { addApprovals, approvalsFromNeeds, canRemember, emptyApprovals, grantsOf, mergeApprovals, type Approvals } from "../permissions/approvals.js";
import { decide, type ModeRules, type PermissionPolicy } from "../permissions/decide.js";
import { gatherFacts, type FactsEnvironment } from "../permissions/gather-facts.js";
import { unknownChanges } from "../permissions/unknown-changes.js";
import type { PermissionFacts } from "../permissions/facts.js";
import type { PathGate } from "../permissions/paths.js";
import type { Rule } from "../permissions/rules.js";
import type { AllowAllSources } from "../permissions/policy.js";
import type { ApprovalGrant } from "../protocol/commands.js";
import type { PermissionRequest, PermissionResultKind, SessionEvent } from "../protocol/events/index.js";
import { canonicalOrigin } from "../permissions/canonical-url.js";
import type { Emit } from "./event-sink.js";
import type { InteractionBroker } from "./interaction-broker.js";
import { adviceFor, type PermissionAdvice } from "./permission-advice.js";
import { permissionOptions } from "./permission-options.js";
import { isBroadAllowRule, type PermissionSummary } from "./permission-summary.js";

/**
 * An approval carries what the call changes and whether a person approved it, for tool.execution_start
 * (resume), and why its changes are not all known (for the rewind snapshots; not persisted).
 */
export type PermissionOutcome =
  | { approved: true; changedFiles?: FileChange[]; approvedByUser?: boolean; unknownChanges?: string }
  /** `rejected`: a person said no and nothing else, which ends the turn (Copilot's reject); with a message the model goes on with it. */
  | { approved: false; kind: PermissionResultKind; message: string; rejected?: boolean };

/**
 * What hooks add to one check: preToolUse's allow (approves what --allow-all-tools would for this call, so deny
 * rules, the floor and what cannot be checked against a deny rule still hold) or ask (asks even what the rules
 * allow), and a permissionRequest hook that may answer in place of the dialog.
 */
export interface PermissionSteer {
  hookDecision?: "allow" | "ask";
  answerInstead?(): Promise<{ approved: boolean; reason?: string } | undefined>;
}

/** The gate as one agent sees it: its questions carry its agentId. */
export interface PermissionChecker {
  check(request: PermissionRequest, toolName: string, signal: AbortSignal, steer?: PermissionSteer): Promise<PermissionOutcome>;
}

/** Without a face's words for it, a refusal says what is needed without naming any flag. */
function plainAdvice(advice: PermissionAdvice): string {
  if (advice.kind === "ask-rule") return `The rule \`${advice.rule}\` (${advice.source}) asks every time, so it can only run where a person can approve it.`;
  if (advice.kind === "person-only") return "Only a person can approve it, or a simpler command the analysis can follow.";
  return "The session's permissions would have to allow it.";
}

export interface PermissionBrokerOptions {
  /** The policy without approvals (rules, flags, floor). */
  policy: Omit<PermissionPolicy, "approvals">;
  environment: FactsEnvironment;
  /**
   * Approvals remembered for this directory (permissions-config.json), as the file says at each decision;
   * `remember` stores an "always" answer (none: nothing is stored beyond the session).
   */
  remembered: { current(): Approvals; remember?(approvals: Approvals): void };
  /** Asks a person or client; with nobody to ask (`agent -p`) the call is denied at once. */
  interactions: InteractionBroker;
  /** The face's words for what would allow a refused call (the CLI names its flags). */
  explainAdvice?(advice: PermissionAdvice): string;
  /** Where the policy's allow-alls came from; without it they are named by their flags. */
  allowAllSources?: AllowAllSources;
}

export class PermissionBroker {
  private readonly session = emptyApprovals();
  /**
   * Questions waiting for a person that a later approval may cover, by request id: what the decision was made
   * of, and whether a preToolUse hook's allow was in force for it.
   */
  private readonly waiting = new Map<string, { facts: PermissionFacts; hookAllows: boolean }>();
  /** Files the agent changed in this session: a rule does not approve commands that run them. */
  private readonly changedFiles = new ChangedFiles();
  private policy: Omit<PermissionPolicy, "approvals">;
  /** What was in force before "allow all" was switched on, to switch it back. */
  private beforeAllowAll: Pick<PermissionPolicy, "allowAllTools" | "allowAllPaths" | "allowAllUrls"> | undefined;

  /** Where facts are gathered: the working directory and the path gate (/cwd and /add-dir replace them). */
  private environment: FactsEnvironment;

  constructor(private readonly options: PermissionBrokerOptions) {
    this.policy = options.policy;
    this.environment = options.environment;
  }

  /** The gate that says which paths are inside the allowed directories. */
  get pathGate(): PathGate {
    return this.environment.gate;
  }

  /** /cwd, /add-dir: checks from now on use this working directory and gate. */
  setWorkspace(cwd: string, gate: PathGate): void {
    this.environment = { ...this.environment, cwd, gate };
  }

  get allowAll(): boolean {
    return this.policy.allowAllTools && this.policy.allowAllPaths && this.policy.allowAllUrls;
  }

  /** Everything that approves calls without asking, with where it came from. */
  get summary(): PermissionSummary {
    const given = this.options.allowAllSources;
    const command = this.beforeAllowAll ? ["/allow-all"] : [];
    const from = (on: boolean, sources: readonly string[] | undefined, name: string) => (on ? [...(sources && sources.length > 0 ? sources : [name])] : []);
    // What is in force apart from /allow-all: the state it will return to when switched off.
    const initial = this.beforeAllowAll ?? this.policy;
    return {
      tools: [...from(initial.allowAllTools, given?.tools, "--allow-all-tools"), ...command],
      paths: [...from(initial.allowAllPaths, given?.paths, "--allow-all-paths"), ...command],
      urls: [...from(initial.allowAllUrls, given?.urls, "--allow-all-urls"), ...command],
      broadRules: [
        ...this.policy.rules.filter(isBroadAllowRule).map((rule) => `\`${rule.text}\` (${rule.source})`),
        ...(this.policy.mcpReadOnly
          ? [
              `read-only MCP tools${this.policy.mcpReadOnly === true ? "" : ` of ${this.policy.mcpReadOnly.join(", ")}`} (settings.json mcp.autoApproveReadOnly)`,
            ]
          : []),
      ],
    };
  }

  /** /allow-all on|off: approve every tool, path and URL (deny rules and the floor still apply). */
  setAllowAll(on: boolean): void {
    if (on) {
      this.beforeAllowAll ??= { allowAllTools: this.policy.allowAllTools, allowAllPaths: this.policy.allowAllPaths, allowAllUrls: this.policy.allowAllUrls };
      this.policy = { ...this.policy, allowAllTools: true, allowAllPaths: true, allowAllUrls: true };
    } else {
      this.policy = { ...this.policy, ...(this.beforeAllowAll ?? { allowAllTools: false, allowAllPaths: false, allowAllUrls: false }) };
      this.beforeAllowAll = undefined;
    }
  }

  /** Every URL approved (or not) from now on; /allow-all off comes back to this. */
  setAllowAllUrls(on: boolean): void {
    this.policy = { ...this.policy, allowAllUrls: on || this.beforeAllowAll !== undefined };
    if (this.beforeAllowAll) this.beforeAllowAll = { ...this.beforeAllowAll, allowAllUrls: on };
  }

  /** The rules the session's mode adds (a mode switch replaces them). */
  setModeRules(mode: ModeRules | undefined): void {
    const { mode: _previous, ...rest } = this.policy;
    this.policy = mode ? { ...rest, mode } : rest;
  }

  /**
   * The allow rules of the skills loaded so far (their allowed-tools), replacing the previous set; the
   * session's own rules stay. A waiting question the new set covers is released, as after a remembering answer.
   */
  setSkillRules(rules: readonly Rule[]): void {
    this.policy = { ...this.policy, rules: [...this.options.policy.rules, ...rules] };
    this.releaseCovered();
  }

  /** A resumed session's record of the files its agent changed, from its log. */
  restoreChangedFiles(events: readonly SessionEvent[]): void {
    this.changedFiles.restore(events);
  }

  /** /reset-allowed-tools: forgets this session's approvals (remembered ones stay). */
  resetAllowedTools(): void {
    Object.assign(this.session, emptyApprovals());
  }

  /**
   * Approvals for this session given without a question (an SDK app's modifyRules); compared as the answers'
   * are: a URL by its canonical origin, a command by its stem as written.
   */
  changeApprovals(add: readonly ApprovalGrant[], remove: readonly ApprovalGrant[]): void {
    const target = (grant: ApprovalGrant): [Set<string>, string] | undefined => {
      if (grant.kind === "command") return [this.session.commands, grant.value.trim()];
      if (grant.kind === "tool") return [this.session.tools, grant.value];
      const origin = canonicalOrigin(grant.value);
      return origin ? [this.session.origins, origin] : undefined;
    };
    for (const grant of add) {
      const found = target(grant);
      if (found) found[0].add(found[1]);
    }
    for (const grant of remove) {
      const found = target(grant);
      if (found) found[0].delete(found[1]);
    }
  }

  /** Approvals given to this session without a question (a location's kept ones); waiting questions they cover are released. */
  grant(approvals: Approvals): void {
    addApprovals(this.session, approvals);
    this.releaseCovered();
  }

  /** The gate for one agent: its permission questions are emitted as that agent. */
  forAgent(emit: Emit): PermissionChecker {
    return { check: (request, toolName, signal, steer) => this.check(request, toolName, signal, emit, steer) };
  }

  private async check(request: PermissionRequest, toolName: string, signal: AbortSignal, emit: Emit, steer?: PermissionSteer): Promise<PermissionOutcome> {
    const gathered = await gatherFacts(request, toolName, { ...this.environment, changedFiles: this.changedFiles.list() });
    // Recorded as soon as the call may run, so the next check (of any agent) sees it.
    const approve = (byUser: boolean): PermissionOutcome => {
      const changes = gathered.facts.changes ?? [];
      this.changedFiles.record(changes, byUser);
      const unknown = unknownChanges(gathered.facts);
      return {
        approved: true,
        ...(changes.length > 0 ? { changedFiles: changes, ...(byUser ? { approvedByUser: true } : {}) } : {}),
        ...(unknown ? { unknownChanges: unknown } : {}),
      };
    };
    const policy = { ...this.policy, ...(steer?.hookDecision === "allow" ? { allowAllTools: true } : {}) };
    const approvals = mergeApprovals(this.options.remembered.current(), this.session);
    let found = decide(gathered.facts, { ...policy, approvals });
    // Read-only calls are asked only of someone who can answer: with nobody to ask they run, as everywhere else.
    if (found.verdict === "ask" && policy.askReadOnly && !this.options.interactions.canAnswer("permission")) {
      const plain = decide(gathered.facts, { ...policy, askReadOnly: false, approvals });
      if (plain.verdict === "allow") found = plain;
    }
    if (found.verdict === "deny") return { approved: false, kind: "denied-by-rules", message: found.reason };
    const decision =
      found.verdict === "allow" && steer?.hookDecision === "ask"
        ? { verdict: "ask" as const, reason: "a preToolUse hook asks for approval", needs: [] }
        : found;
    if (decision.verdict === "allow") return approve(false);
    const hookAnswer = steer?.answerInstead ? await steer.answerInstead() : undefined;
    if (hookAnswer?.approved) return approve(false);
    if (hookAnswer) return { approved: false, kind: "denied-by-rules", message: `Denied by permissionRequest hook: ${hookAnswer.reason ?? "no reason given"}` };
    if (!this.options.interactions.canAnswer("permission")) {
      const explain = this.options.explainAdvice ?? plainAdvice;
      return {
        approved: false,
        kind: "denied-no-approval-rule-and-could-not-request-from-user",
        message: `Permission denied: ${decision.reason}, and no interactive user response was available. ${explain(adviceFor(decision))} Otherwise retry in an interactive session so the user can approve it, or try an alternative that does not require this permission.`,
      };
    }
    const outsidePaths = decision.needs.flatMap((need) => (need.kind === "path" ? [need.resolved ?? need.text] : []));
    const rememberable = canRemember(decision.needs);
    // One value decides what the offered answers' labels name and what a remembering answer stores.
    const granted = approvalsFromNeeds(decision.needs);
    const options = permissionOptions(rememberable ? grantsOf(granted) : undefined);
    const asked: PermissionRequest = {
      ...gathered.request,
      reason: decision.reason,
      ...(outsidePaths.length > 0 ? { outsidePaths } : {}),
      ...(gathered.request.kind === "shell" ? { canOfferSessionApproval: rememberable } : {}),
      ...(rememberable ? { grants: grantsOf(granted) } : {}),
    };
    const requestId = randomUUID();
    // What a hook asks a person about stays with the person: a rule given meanwhile does not answer it.
    if (steer?.hookDecision !== "ask") this.waiting.set(requestId, { facts: gathered.facts, hookAllows: steer?.hookDecision === "allow" });
    const answer = await this.options.interactions
      .ask("permission", { permissionRequest: asked, options }, { emit, signal, requestId })
      .finally(() => this.waiting.delete(requestId));
    const { reply } = answer;
    if (reply.kind === "deny" && reply.unavailable) {
      // Copilot's words: models are tuned on them.
      return {
        approved: false,
        kind: "denied-no-approval-rule-and-could-not-request-from-user",
        message: "Permission denied and could not request permission from user",
      };
    }
    if (reply.kind === "deny") {
      return {
        approved: false,
        kind: "denied-interactively-by-user",
        message: `The user rejected this tool call.${reply.message ? ` The user said: ${reply.message}` : ""}`,
        ...(reply.message ? {} : { rejected: true }),
      };
    }
    // Only an answer that was offered is kept: its label said what it stores.
    const remembers = reply.kind === "approve-for-session" ? "allow_session" : reply.kind === "approve-always" ? "allow_always" : undefined;
    if (remembers && options.some((option) => option.kind === remembers)) {
      addApprovals(this.session, granted);
      if (reply.kind === "approve-always") this.options.remembered.remember?.(granted);
      this.releaseCovered();
    }
    // Released by a rule, nobody saw this call: its changes are not a person's.
    if (answer.source === "rule") return approve(false);
    // A person saw this call (the diff, the command) and approved it: the changes it makes are theirs.
    return approve(true);
  }

  /**
   * A "yes for this session / always" answers the other questions it now covers (opencode's reply that
   * releases others): each is decided again as a fresh check would be, and what is now allowed is approved.
   */
  private releaseCovered(): void {
    if (this.waiting.size === 0) return;
    const approvals = mergeApprovals(this.options.remembered.current(), this.session);
    for (const [requestId, { facts, hookAllows }] of [...this.waiting]) {
      const policy = { ...this.policy, ...(hookAllows ? { allowAllTools: true } : {}), approvals };
      if (decide(facts, policy).verdict === "allow") this.options.interactions.release(requestId, "permission", { kind: "approve-once" });
    }
  }
}
