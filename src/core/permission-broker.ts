/**
 * Every tool call passes here. Facts are gathered (shell analysis, path gate), the pure decision says
 * allow, deny or ask; asking emits permission.requested and waits for an answer command. With nobody to
 * ask (`agent -p`) the call is denied at once, and the result says which flag would allow it: a headless
 * run never waits.
 */
import { randomUUID } from "node:crypto";
import { addApprovals, approvalsFromNeeds, canRemember, emptyApprovals, grantsOf, mergeApprovals, type Approvals } from "../permissions/approvals.js";
import { decide, type PermissionPolicy } from "../permissions/decide.js";
import { gatherFacts, type FactsEnvironment } from "../permissions/gather-facts.js";
import { rememberApprovals } from "../permissions/permissions-config.js";
import type { AllowAllSources } from "../permissions/policy.js";
import { adviceFor, adviceText } from "./permission-advice.js";
import { isBroadAllowRule, type PermissionSummary } from "./permission-summary.js";
import type { PermissionRequest, PermissionResultKind } from "./events/index.js";
import type { Emit } from "./event-sink.js";

export type PermissionReply =
  | { kind: "approve-once" }
  | { kind: "approve-for-session" }
  | { kind: "approve-always" }
  | { kind: "deny"; message?: string };

export type PermissionOutcome = { approved: true } | { approved: false; kind: PermissionResultKind; message: string };

interface Pending {
  request: PermissionRequest;
  resolve(reply: PermissionReply): void;
}

export interface PermissionBrokerOptions {
  emit: Emit;
  /** The policy without approvals (rules, flags, floor). */
  policy: Omit<PermissionPolicy, "approvals">;
  environment: FactsEnvironment;
  /** Approvals remembered for this directory (permissions-config.json). */
  remembered: Approvals;
  /** Where "always" answers are written: $AGENT_HOME and the directory they apply to. */
  remember: { agentHome: string; dir: string } | undefined;
  /** Whether a person can answer (false for `agent -p`). */
  canAsk(): boolean;
  /** Where the policy's allow-alls came from; without it they are named by their flags. */
  allowAllSources?: AllowAllSources;
}

export class PermissionBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly session = emptyApprovals();
  private policy: Omit<PermissionPolicy, "approvals">;
  /** What was in force before "allow all" was switched on, to switch it back. */
  private beforeAllowAll: Pick<PermissionPolicy, "allowAllTools" | "allowAllPaths" | "allowAllUrls"> | undefined;

  constructor(private readonly options: PermissionBrokerOptions) {
    this.policy = options.policy;
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
      broadRules: this.policy.rules.filter(isBroadAllowRule).map((rule) => `\`${rule.text}\` (${rule.source})`),
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

  /** /reset-allowed-tools: forgets this session's approvals (remembered ones stay). */
  resetAllowedTools(): void {
    Object.assign(this.session, emptyApprovals());
  }

  get pendingRequests(): { requestId: string; request: PermissionRequest }[] {
    return [...this.pending].map(([requestId, { request }]) => ({ requestId, request }));
  }

  async check(request: PermissionRequest, toolName: string, signal: AbortSignal): Promise<PermissionOutcome> {
    const gathered = await gatherFacts(request, toolName, this.options.environment);
    const decision = decide(gathered.facts, { ...this.policy, approvals: mergeApprovals(this.options.remembered, this.session) });
    if (decision.verdict === "allow") return { approved: true };
    if (decision.verdict === "deny") return { approved: false, kind: "denied-by-rules", message: decision.reason };
    if (!this.options.canAsk()) {
      return {
        approved: false,
        kind: "denied-no-approval-rule-and-could-not-request-from-user",
        message: `Permission denied: ${decision.reason}, and no interactive user response was available. ${adviceText(adviceFor(decision))} Otherwise retry in an interactive session so the user can approve it, or try an alternative that does not require this permission.`,
      };
    }
    const outsidePaths = decision.needs.flatMap((need) => (need.kind === "path" ? [need.resolved ?? need.text] : []));
    const rememberable = canRemember(decision.needs);
    // One value decides both what the dialog's labels name and what an answer stores.
    const granted = approvalsFromNeeds(decision.needs);
    const asked: PermissionRequest = {
      ...gathered.request,
      reason: decision.reason,
      ...(outsidePaths.length > 0 ? { outsidePaths } : {}),
      ...(gathered.request.kind === "shell" ? { canOfferSessionApproval: rememberable } : {}),
      ...(rememberable ? { grants: grantsOf(granted) } : {}),
    };
    const reply = await this.ask(asked, signal);
    if (reply.kind === "deny") {
      return { approved: false, kind: "denied-interactively-by-user", message: `The user rejected this tool call.${reply.message ? ` The user said: ${reply.message}` : ""}` };
    }
    if ((reply.kind === "approve-for-session" || reply.kind === "approve-always") && rememberable) {
      addApprovals(this.session, granted);
      if (reply.kind === "approve-always" && this.options.remember) {
        addApprovals(this.options.remembered, granted);
        rememberApprovals(this.options.remember.agentHome, this.options.remember.dir, granted);
      }
    }
    return { approved: true };
  }

  private async ask(request: PermissionRequest, signal: AbortSignal): Promise<PermissionReply> {
    const requestId = randomUUID();
    const reply = await new Promise<PermissionReply>((resolve) => {
      const onAbort = () => resolve({ kind: "deny", message: "The user interrupted." });
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.pending.set(requestId, {
        request,
        resolve: (answer) => {
          signal.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      });
      this.options.emit("permission.requested", { requestId, permissionRequest: request });
    });
    this.pending.delete(requestId);
    this.options.emit("permission.completed", {
      requestId,
      result: { kind: reply.kind === "deny" ? "denied-interactively-by-user" : "approved", ...(reply.kind === "deny" && reply.message ? { message: reply.message } : {}) },
      decisionSource: "human_response",
    });
    return reply;
  }

  /** Answers a pending request; false when no such request is waiting. */
  respond(requestId: string, reply: PermissionReply): boolean {
    const pending = this.pending.get(requestId);
    if (!pending) return false;
    pending.resolve(reply);
    return true;
  }
}
