/**
 * Every tool call passes here. The pure decision says allow, deny or ask; asking emits
 * permission.requested and waits for an answer command. With nobody to ask (`agent -p`), the call is
 * denied at once with a result that says how to allow it: a headless run never waits.
 */
import { randomUUID } from "node:crypto";
import { decide, sessionApprovalKey, type PermissionPolicy } from "../permissions/decide.js";
import type { PermissionRequest, PermissionResultKind } from "./events/index.js";
import type { Emit } from "./event-sink.js";

export type PermissionReply =
  | { kind: "approve-once" }
  | { kind: "approve-for-session" }
  | { kind: "approve-always" }
  | { kind: "deny"; message?: string };

export type PermissionOutcome = { approved: true } | { approved: false; kind: PermissionResultKind; message: string };

export const NO_APPROVER_MESSAGE =
  "Permission denied because no interactive user response was available. Retry in an interactive session so the user can approve it, or try an alternative that does not require this permission.";

function howToAllow(request: PermissionRequest): string {
  const what = request.kind === "shell" ? `the command \`${request.fullCommandText}\`` : request.kind === "write" ? `writing ${request.fileName}` : "this tool call";
  return `To allow ${what} in a non-interactive run, start agent with --allow-all-tools (or --yolo).`;
}

interface Pending {
  request: PermissionRequest;
  resolve(reply: PermissionReply): void;
}

export class PermissionBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly sessionApprovals = new Set<string>();

  constructor(
    private readonly emit: Emit,
    private policy: PermissionPolicy,
    /** Whether a person can answer (false for `agent -p`). */
    private readonly canAsk: () => boolean,
  ) {}

  setPolicy(policy: PermissionPolicy): void {
    this.policy = policy;
  }

  get currentPolicy(): PermissionPolicy {
    return this.policy;
  }

  /** Forgets "yes, for this session" answers. */
  resetSessionApprovals(): void {
    this.sessionApprovals.clear();
  }

  get pendingRequests(): { requestId: string; request: PermissionRequest }[] {
    return [...this.pending].map(([requestId, { request }]) => ({ requestId, request }));
  }

  async check(request: PermissionRequest, signal: AbortSignal): Promise<PermissionOutcome> {
    const decision = decide(request, this.policy, this.sessionApprovals);
    if (decision.verdict === "allow") return { approved: true };
    if (decision.verdict === "deny") {
      return { approved: false, kind: "denied-by-rules", message: `Permission to run this tool was denied: ${decision.reason}.` };
    }
    if (!this.canAsk()) {
      return {
        approved: false,
        kind: "denied-no-approval-rule-and-could-not-request-from-user",
        message: `${NO_APPROVER_MESSAGE} ${howToAllow(request)}`,
      };
    }
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
      this.emit("permission.requested", { requestId, permissionRequest: request });
    });
    this.pending.delete(requestId);
    const approved = reply.kind !== "deny";
    if (reply.kind === "approve-for-session" || reply.kind === "approve-always") {
      const key = sessionApprovalKey(request);
      if (key) this.sessionApprovals.add(key);
    }
    const kind: PermissionResultKind = approved ? "approved" : "denied-interactively-by-user";
    this.emit("permission.completed", {
      requestId,
      result: { kind, ...(reply.kind === "deny" && reply.message ? { message: reply.message } : {}) },
      decisionSource: "human_response",
    });
    if (approved) return { approved: true };
    const userMessage = reply.kind === "deny" && reply.message ? ` The user said: ${reply.message}` : "";
    return { approved: false, kind, message: `The user rejected this tool call.${userMessage}` };
  }

  /** Answers a pending request; false when no such request is waiting. */
  respond(requestId: string, reply: PermissionReply): boolean {
    const pending = this.pending.get(requestId);
    if (!pending) return false;
    pending.resolve(reply);
    return true;
  }
}
