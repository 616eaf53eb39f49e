/**
 * The engine's questions in ACP's words: a permission and the plan review as `session/request_permission`, a
 * form (ask_user, an MCP server's elicitation) as `elicitation/create`, and the client's choice as the
 * engine's reply. When and whom to ask, what a failure means and when to withdraw (`$/cancel_request`, through
 * the request's cancellation signal) is the shared adapter's (core/remote-questions.ts).
 */
import type { AgentContext, ClientCapabilities, ElicitationSchema, PermissionOption, RequestPermissionOutcome, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { RemoteQuestion } from "../core/remote-questions.js";
import type { SessionEventOf } from "../protocol/events/index.js";
import { offeredOptions, type InteractionKind, type InteractionReply } from "../protocol/interactions.js";
import { permissionOptions, permissionReply, permissionTitle } from "./permission-options.js";
import { planApprovalOptions, planApprovalReply } from "./plan-approval.js";
import { textContent, toolKind } from "./tool-call-info.js";

/**
 * The questions an editor can be asked: permissions and the plan review (as permission requests), and forms
 * (ask_user, an MCP server's elicitation) when it renders them. The rest get their headless answer.
 */
export function acpCanAnswer(capabilities: ClientCapabilities | undefined, kind: InteractionKind): boolean {
  if (kind === "permission" || kind === "exit_plan_mode") return true;
  return kind === "elicitation" && capabilities?.elicitation?.form !== undefined && capabilities.elicitation.form !== null;
}

export interface ClientQuestionsOptions {
  client: AgentContext;
  sessionId: string;
  log(message: string): void;
  /** The latest call of a tool (the plan review belongs to its exit_plan_mode call). */
  lastCallNamed(name: string): string | undefined;
}

/** Puts one question to the editor and reads its answer (the adapter's `ask`). */
export function askEditor(options: ClientQuestionsOptions, question: RemoteQuestion, signal: AbortSignal): Promise<InteractionReply | undefined> {
  const asking = sent(options, question, signal);
  return asking.catch((error: unknown) => {
    if (!signal.aborted) options.log(`asking the client failed: ${(error as Error).message}`);
    throw error;
  });
}

function sent(options: ClientQuestionsOptions, question: RemoteQuestion, signal: AbortSignal): Promise<InteractionReply | undefined> {
  switch (question.type) {
    case "permission.requested":
      return askPermission(options, question, signal);
    case "exit_plan_mode.requested":
      return askPlanApproval(options, question, signal);
    case "elicitation.requested":
      return askForm(options, question, signal);
    default:
      return Promise.reject(new Error(`an editor is not asked ${question.type}`));
  }
}

/** The answers the broker offers, with its labels; the choice goes back as the reply of the chosen option. */
function askPermission(options: ClientQuestionsOptions, event: SessionEventOf<"permission.requested">, signal: AbortSignal) {
  const { requestId, permissionRequest } = event.data;
  const offered = offeredOptions(event.data);
  return requestPermission(
    options,
    {
      toolCallId: permissionRequest.toolCallId ?? requestId,
      title: permissionTitle(permissionRequest),
      ...(permissionRequest.kind === "shell" ? { kind: toolKind("bash") } : {}),
      status: "pending",
      rawInput: permissionRequest,
    },
    permissionOptions(offered),
    signal,
  ).then((outcome) => permissionReply(outcome, offered));
}

/** The plan review, asked as a permission to switch mode, on the exit_plan_mode call the client has seen. */
function askPlanApproval(options: ClientQuestionsOptions, event: SessionEventOf<"exit_plan_mode.requested">, signal: AbortSignal) {
  const { requestId, summary, planContent, actions, recommendedAction } = event.data;
  return requestPermission(
    options,
    {
      toolCallId: options.lastCallNamed("exit_plan_mode") ?? requestId,
      title: summary || "Ready to implement the plan?",
      kind: "switch_mode",
      status: "pending",
      content: [textContent(planContent)],
    },
    planApprovalOptions(actions, recommendedAction),
    signal,
  ).then((outcome) => planApprovalReply(outcome));
}

/** A form (ask_user, an MCP server's elicitation) as ACP's `elicitation/create`, when the client renders forms. */
async function askForm(options: ClientQuestionsOptions, event: SessionEventOf<"elicitation.requested">, signal: AbortSignal): Promise<InteractionReply> {
  const { message, toolCallId, requestedSchema } = event.data;
  const response = await options.client.request(
    "elicitation/create",
    {
      mode: "form",
      sessionId: options.sessionId,
      ...(toolCallId ? { toolCallId } : {}),
      message,
      requestedSchema: requestedSchema as ElicitationSchema,
    },
    { cancellationSignal: signal },
  );
  const action = response.action === "accept" || response.action === "decline" ? response.action : "cancel";
  return action === "accept" && "content" in response && response.content ? { action, content: response.content as Record<string, unknown> } : { action };
}

async function requestPermission(
  options: ClientQuestionsOptions,
  toolCall: ToolCallUpdate,
  choices: PermissionOption[],
  signal: AbortSignal,
): Promise<RequestPermissionOutcome> {
  const response = await options.client.request(
    "session/request_permission",
    { sessionId: options.sessionId, toolCall, options: choices },
    { cancellationSignal: signal },
  );
  return response.outcome;
}
