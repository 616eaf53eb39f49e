/**
 * The engine's permission question as ACP's `session/request_permission`: the answers the broker offers (the
 * event's list, with its labels) as ACP's options. "Yes for this session" is an allow_always to ACP (its
 * kinds have nothing narrower than always); the chosen option becomes the engine's permission reply.
 */
import type { PermissionOption as AcpOption, RequestPermissionOutcome } from "@agentclientprotocol/sdk";
import type { PermissionOption, PermissionRequest } from "../protocol/events/index.js";
import { optionReply, type PermissionReply } from "../protocol/interactions.js";

const ACP_KINDS: Record<PermissionOption["kind"], AcpOption["kind"]> = {
  allow_once: "allow_once",
  allow_session: "allow_always",
  allow_always: "allow_always",
  reject_once: "reject_once",
};

export function permissionOptions(offered: readonly PermissionOption[]): AcpOption[] {
  return offered.map((option) => ({ optionId: option.id, name: option.label, kind: ACP_KINDS[option.kind] }));
}

/** The client's choice as the engine's reply; a cancelled question (the prompt was cancelled) is a denial. */
export function permissionReply(outcome: RequestPermissionOutcome, offered: readonly PermissionOption[]): PermissionReply {
  if (outcome.outcome === "cancelled") return { kind: "deny", message: "The user cancelled." };
  const option = offered.find((candidate) => candidate.id === outcome.optionId);
  return option ? optionReply(option) : { kind: "deny", message: `Unknown option ${outcome.optionId}.` };
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
