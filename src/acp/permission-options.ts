/**
 * The engine's permission question as ACP's `session/request_permission`: allow once, allow for the session,
 * allow always in this directory (when the request can be remembered), reject. The chosen option becomes the
 * engine's permission reply.
 */
import type { PermissionOption, RequestPermissionOutcome } from "@agentclientprotocol/sdk";
import type { PermissionRequest } from "../protocol/events/index.js";
import type { PermissionReply } from "../protocol/interactions.js";

const REPLIES: Record<string, PermissionReply> = {
  "allow-once": { kind: "approve-once" },
  "allow-session": { kind: "approve-for-session" },
  "allow-always": { kind: "approve-always" },
  reject: { kind: "deny" },
};

/** Whether "don't ask again" can be offered: the gate says what it would store, or the request names it. */
function rememberable(request: PermissionRequest): boolean {
  if (request.grants) return true;
  return request.kind !== "shell" || request.canOfferSessionApproval !== false;
}

export function permissionOptions(request: PermissionRequest): PermissionOption[] {
  return [
    { optionId: "allow-once", name: "Allow once", kind: "allow_once" },
    ...(rememberable(request)
      ? [
          { optionId: "allow-session", name: "Allow for this session", kind: "allow_always" as const },
          { optionId: "allow-always", name: "Always allow in this directory", kind: "allow_always" as const },
        ]
      : []),
    { optionId: "reject", name: "Reject", kind: "reject_once" },
  ];
}

/** The client's choice as the engine's reply; a cancelled question (the prompt was cancelled) is a denial. */
export function permissionReply(outcome: RequestPermissionOutcome): PermissionReply {
  if (outcome.outcome === "cancelled") return { kind: "deny", message: "The user cancelled." };
  return REPLIES[outcome.optionId] ?? { kind: "deny", message: `Unknown option ${outcome.optionId}.` };
}

/** A title for the question, from what the request says it wants. */
export function permissionTitle(request: PermissionRequest): string {
  switch (request.kind) {
    case "shell":
      return request.intention || request.fullCommandText;
    case "write":
    case "read":
    case "url":
      return request.intention;
    case "mcp":
      return `${request.toolTitle} (${request.serverName})`;
    case "custom-tool":
      return request.toolName;
    case "memory":
      return `${request.action === "retire" ? "Retire" : request.action === "confirm" ? "Confirm" : "Remember"}: ${request.subject}`;
  }
}
