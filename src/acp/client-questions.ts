/**
 * The engine's questions as the client's: a permission and the plan review as `session/request_permission`,
 * a form (ask_user, an MCP server's elicitation) as `elicitation/create`. Each is sent after the updates before
 * it, its answer goes back to the engine as a `respond` command, and a question the engine stops waiting for
 * (the turn was cancelled) is withdrawn from the client with `$/cancel_request`.
 */
import type { AgentContext, ElicitationSchema, PermissionOption, RequestPermissionOutcome, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { SessionView } from "../core/index.js";
import type { SessionEvent, SessionEventOf } from "../protocol/events/index.js";
import type { InteractionReply } from "../protocol/interactions.js";
import { permissionOptions, permissionReply, permissionTitle } from "./permission-options.js";
import { planApprovalOptions, planApprovalReply } from "./plan-approval.js";
import { textContent, toolKind } from "./tool-call-info.js";

export interface ClientQuestionsOptions {
  client: AgentContext;
  session: Pick<SessionView, "id" | "dispatch">;
  log(message: string): void;
  /** Resolves when the updates sent so far are written. */
  after(): Promise<void>;
  /** The latest call of a tool (the plan review belongs to its exit_plan_mode call). */
  lastCallNamed(name: string): string | undefined;
}

export class ClientQuestions {
  /** The questions the client has been asked and not answered, by the engine's request id. */
  private readonly questions = new Map<string, AbortController>();

  constructor(private readonly options: ClientQuestionsOptions) {}

  onEvent(event: SessionEvent): void {
    if (event.type === "permission.requested") this.askPermission(event);
    if (event.type === "exit_plan_mode.requested") this.askPlanApproval(event);
    if (event.type === "elicitation.requested") this.askForm(event);
    if (event.type === "permission.completed" || event.type === "exit_plan_mode.completed" || event.type === "elicitation.completed") {
      this.questionClosed(event.data.requestId);
    }
  }

  /** Asked after the updates before it (the client has seen the tool call); the answer goes back as `respond`. */
  private askPermission(event: SessionEventOf<"permission.requested">): void {
    const { requestId, permissionRequest } = event.data;
    this.requestPermission(
      requestId,
      {
        toolCallId: permissionRequest.toolCallId ?? requestId,
        title: permissionTitle(permissionRequest),
        ...(permissionRequest.kind === "shell" ? { kind: toolKind("bash") } : {}),
        status: "pending",
        rawInput: permissionRequest,
      },
      permissionOptions(permissionRequest),
      (outcome) => permissionReply(outcome),
      { kind: "deny", message: "The client could not be asked." },
    );
  }

  /** The plan review, asked as a permission to switch mode, on the exit_plan_mode call the client has seen. */
  private askPlanApproval(event: SessionEventOf<"exit_plan_mode.requested">): void {
    const { requestId, summary, planContent, actions, recommendedAction } = event.data;
    this.requestPermission(
      requestId,
      {
        toolCallId: this.options.lastCallNamed("exit_plan_mode") ?? requestId,
        title: summary || "Ready to implement the plan?",
        kind: "switch_mode",
        status: "pending",
        content: [textContent(planContent)],
      },
      planApprovalOptions(actions, recommendedAction),
      (outcome) => planApprovalReply(outcome),
      { approved: false },
    );
  }

  /** A form (ask_user, an MCP server's elicitation) as ACP's `elicitation/create`, when the client renders forms. */
  private askForm(event: SessionEventOf<"elicitation.requested">): void {
    const { requestId, message, toolCallId, requestedSchema } = event.data;
    this.question(
      requestId,
      (cancellationSignal) =>
        this.options.client.request(
          "elicitation/create",
          {
            mode: "form",
            sessionId: this.options.session.id,
            ...(toolCallId ? { toolCallId } : {}),
            message,
            requestedSchema: requestedSchema as ElicitationSchema,
          },
          { cancellationSignal },
        ),
      (response) => {
        const action = response.action === "accept" || response.action === "decline" ? response.action : "cancel";
        return action === "accept" && "content" in response && response.content ? { action, content: response.content as Record<string, unknown> } : { action };
      },
      { action: "cancel" },
    );
  }

  /** A question with options, as a permission request. */
  private requestPermission(
    requestId: string,
    toolCall: ToolCallUpdate,
    options: PermissionOption[],
    toReply: (outcome: RequestPermissionOutcome) => InteractionReply,
    fallback: InteractionReply,
  ): void {
    this.question(
      requestId,
      (cancellationSignal) =>
        this.options.client.request("session/request_permission", { sessionId: this.options.session.id, toolCall, options }, { cancellationSignal }),
      (response) => toReply(response.outcome),
      fallback,
    );
  }

  /**
   * Sends a question after the updates before it and hands the answer to the engine. When the engine stops
   * waiting first (the turn was cancelled), the client is told to close the question (`$/cancel_request`).
   */
  private question<T>(
    requestId: string,
    send: (signal: AbortSignal) => Promise<T>,
    toReply: (response: T) => InteractionReply,
    fallback: InteractionReply,
  ): void {
    const { session, log } = this.options;
    const controller = new AbortController();
    this.questions.set(requestId, controller);
    this.options
      .after()
      .then(() => send(controller.signal))
      .then(
        // A late answer finds no question waiting in the engine: nothing happens.
        (response) => toReply(response),
        (error: unknown) => {
          if (!controller.signal.aborted) log(`asking the client failed: ${(error as Error).message}`);
          return fallback;
        },
      )
      .then((reply) => {
        this.questions.delete(requestId);
        session.dispatch({ type: "respond", requestId, reply });
      });
  }

  /** The engine no longer waits for this question (answered, or given up). */
  private questionClosed(requestId: string): void {
    const controller = this.questions.get(requestId);
    this.questions.delete(requestId);
    controller?.abort();
  }
}
