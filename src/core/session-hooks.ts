/**
 * The engine's side of hooks: one method per place the engine fires a hook event, building Copilot's payload
 * (sessionId, timestamp, cwd, transcriptPath, then the event's fields) and reading the answer with the
 * event's rule. With no hooks for an event a method returns at once: nothing is spawned, nothing is read.
 */
import {
  additionalContext,
  isBlock,
  isDeny,
  mcpMeta,
  modifiedResult,
  permissionDecision,
  promptDecision,
  stopBlock,
  toolDecision,
  transformedPrompt,
  type PromptHookDecision,
  type ToolHookDecision,
} from "../hooks/decisions.js";
import type { HookEventName } from "../hooks/hook-schema.js";
import type { HookReporter, HookSet, RunHooksOptions, HookAnswer } from "../hooks/hook-set.js";
import type { HookDefinition } from "../hooks/load-hooks.js";
import type { EventType, SessionEvent } from "../protocol/events/index.js";
import type { Emit } from "./event-sink.js";
import type { McpCallHook } from "../tools/define-tool.js";
import type { ToolHooks, ToolResultText } from "./tool-runner.js";

/** Copilot gives hooks a tool's arguments as a JSON string (`jq -r '.toolArgs' | jq -r '.command'`). */
const argsText = (args: unknown): string => JSON.stringify(args ?? {});

const TOOL_EVENTS = ["preToolUse", "postToolUse", "postToolUseFailure", "permissionRequest", "preMcpToolCall"] as const;

/** Events that wait for a person: each fires the notification hook with its type. */
const NOTIFYING: Partial<Record<EventType, string>> = {
  "permission.requested": "permission_prompt",
  "user_input.requested": "user_input",
  "elicitation.requested": "elicitation",
  "exit_plan_mode.requested": "plan_review",
};

export interface SessionHookFacts {
  sessionId: string;
  cwd: string;
  /** The session's events.jsonl. */
  transcriptPath: string;
}

/** A reporter that tells the run as events of the agent whose `emit` it is. */
function reporterFor(emit: Emit): HookReporter {
  return {
    start: (data) => emit("hook.start", data),
    end: (data) => emit("hook.end", data),
    warn: (message) => emit("session.warning", { warningType: "hook", message }),
  };
}

export class SessionHooks {
  /** Fire-and-forget runs (errors, notifications), awaited before the session ends. */
  private readonly background = new Set<Promise<unknown>>();

  constructor(
    private readonly set: HookSet | undefined,
    private readonly facts: SessionHookFacts,
  ) {}

  get definitions(): readonly HookDefinition[] {
    return this.set?.definitions ?? [];
  }

  /** Files or entries that could not be loaded. */
  get problems(): readonly string[] {
    return this.set?.problems ?? [];
  }

  has(event: HookEventName): boolean {
    return this.set?.has(event) ?? false;
  }

  private async run(event: HookEventName, emit: Emit, fields: Record<string, unknown>, options?: RunHooksOptions): Promise<HookAnswer[]> {
    if (!this.set?.has(event)) return [];
    const payload = { sessionId: this.facts.sessionId, timestamp: Date.now(), cwd: this.facts.cwd, transcriptPath: this.facts.transcriptPath, ...fields };
    try {
      return await this.set.run(event, payload, reporterFor(emit), options);
    } catch (error) {
      // The runner reports its own failures; this is a bug in it, which must not stop the session either.
      emit("session.warning", { warningType: "hook", message: `The ${event} hooks could not run: ${(error as Error).message}` });
      return [];
    }
  }

  private fireAndForget(event: HookEventName, emit: Emit, fields: Record<string, unknown>): void {
    if (!this.set?.has(event)) return;
    // Started after the event that caused it has reached every listener, so the log keeps its order.
    const running = Promise.resolve()
      .then(() => this.run(event, emit, fields))
      .finally(() => this.background.delete(running));
    this.background.add(running);
  }

  /** Watches the session's events for errorOccurred and notification (a listener on the sink). */
  observe(event: SessionEvent, emit: Emit): void {
    if (event.type === "session.error") this.errorOccurred(emit, event.data);
    const notificationType = NOTIFYING[event.type];
    if (notificationType) this.notification(emit, notificationType, `${event.type.split(".")[0]} waiting for an answer`);
  }

  /** Waits for fire-and-forget hooks (each has its own timeout). */
  async settle(): Promise<void> {
    await Promise.all([...this.background]);
  }

  async sessionStart(emit: Emit, source: "new" | "resume", initialPrompt?: string): Promise<string | undefined> {
    for (const problem of this.set?.problems ?? []) emit("session.warning", { warningType: "hook", message: `Hook file skipped: ${problem}` });
    return additionalContext(await this.run("sessionStart", emit, { source, ...(initialPrompt !== undefined ? { initialPrompt } : {}) }));
  }

  async sessionEnd(emit: Emit, reason: "complete" | "error" | "abort"): Promise<void> {
    await this.run("sessionEnd", emit, { reason });
  }

  /** Once per person's prompt, as it joins the conversation: context to send with it, a prompt to send instead, or a block that drops it. */
  async userPromptSubmitted(emit: Emit, prompt: string, signal?: AbortSignal): Promise<PromptHookDecision> {
    return promptDecision(await this.run("userPromptSubmitted", emit, { prompt }, { until: isBlock, ...(signal ? { signal } : {}) }));
  }

  /** Then, with the message built (date header, files, notices): the message the model gets instead, if a hook rewrote it. */
  async userPromptTransformed(emit: Emit, prompt: string, transformed: string, signal?: AbortSignal): Promise<string | undefined> {
    return transformedPrompt(await this.run("userPromptTransformed", emit, { prompt, transformedPrompt: transformed }, signal ? { signal } : {}));
  }

  async preToolUse(emit: Emit, agentName: string | undefined, toolName: string, toolArgs: unknown, signal?: AbortSignal): Promise<ToolHookDecision> {
    const fields = { toolName, toolArgs: argsText(toolArgs), ...(agentName ? { agentName } : {}) };
    return toolDecision(await this.run("preToolUse", emit, fields, { matchValue: toolName, until: isDeny, ...(signal ? { signal } : {}) }));
  }

  async postToolUse(
    emit: Emit,
    agentName: string | undefined,
    toolName: string,
    toolArgs: unknown,
    outcome: ToolResultText,
    signal?: AbortSignal,
  ): Promise<ToolResultText | undefined> {
    const event = outcome.success ? "postToolUse" : "postToolUseFailure";
    const toolResult = { resultType: outcome.success ? "success" : "failure", textResultForLlm: outcome.text };
    // A failure's hooks get the message as `error` (Copilot's), and the result as before.
    const failure = outcome.success ? {} : { error: outcome.text };
    const answers = await this.run(
      event,
      emit,
      { toolName, toolArgs: argsText(toolArgs), toolResult, ...failure, ...(agentName ? { agentName } : {}) },
      { matchValue: toolName, ...(signal ? { signal } : {}) },
    );
    // Only a success's result may be rewritten (Copilot reads modifiedResult from postToolUse alone).
    return outcome.success ? modifiedResult(answers) : undefined;
  }

  /** Before an MCP tool's request goes out: the `_meta` it carries, as the hooks would have it. */
  async preMcpToolCall(emit: Emit, call: Parameters<McpCallHook>[0], signal?: AbortSignal): ReturnType<McpCallHook> {
    const { meta, ...rest } = call;
    const fields = { ...rest, ...(meta ? { _meta: meta } : {}) };
    return mcpMeta(await this.run("preMcpToolCall", emit, fields, { matchValue: call.toolName, ...(signal ? { signal } : {}) }));
  }

  /** In place of the permission dialog: approved, denied, or undefined (ask as usual). */
  async permissionRequest(
    emit: Emit,
    agentName: string | undefined,
    toolName: string,
    toolInput: unknown,
    signal?: AbortSignal,
  ): Promise<{ approved: boolean; reason?: string } | undefined> {
    const fields = { hookName: "permissionRequest", toolName, toolInput, permissionSuggestions: [], ...(agentName ? { agentName } : {}) };
    return permissionDecision(await this.run("permissionRequest", emit, fields, { matchValue: toolName, until: isDeny, ...(signal ? { signal } : {}) }));
  }

  /** The tool hook events as one agent fires them; none when no tool event has a hook (no cost per call). */
  forTools(emit: Emit, agentName: string | undefined): ToolHooks | undefined {
    if (!TOOL_EVENTS.some((event) => this.has(event))) return undefined;
    return {
      preToolUse: (toolName, toolArgs, signal) => this.preToolUse(emit, agentName, toolName, toolArgs, signal),
      permissionRequest: (toolName, toolInput, signal) => this.permissionRequest(emit, agentName, toolName, toolInput, signal),
      postToolUse: (toolName, toolArgs, outcome, signal) => this.postToolUse(emit, agentName, toolName, toolArgs, outcome, signal),
      ...(this.has("preMcpToolCall")
        ? { preMcpToolCall: (call: Parameters<McpCallHook>[0], signal: AbortSignal) => this.preMcpToolCall(emit, call, signal) }
        : {}),
    };
  }

  /** The main agent's prompt run ended; a block's reason is the next prompt. */
  async agentStop(emit: Emit, stopReason: string, stopHookActive: boolean, signal?: AbortSignal): Promise<string | undefined> {
    return stopBlock(await this.run("agentStop", emit, { stopReason, stop_hook_active: stopHookActive }, { until: isBlock, ...(signal ? { signal } : {}) }));
  }

  async subagentStart(
    emit: Emit,
    agent: { agentName: string; agentDisplayName?: string; agentDescription?: string },
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    return additionalContext(await this.run("subagentStart", emit, { ...agent }, { matchValue: agent.agentName, ...(signal ? { signal } : {}) }));
  }

  async subagentStop(emit: Emit, agentName: string, stopReason: string, stopHookActive: boolean, signal?: AbortSignal): Promise<string | undefined> {
    const fields = { agentName, stopReason, stop_hook_active: stopHookActive };
    return stopBlock(await this.run("subagentStop", emit, fields, { matchValue: agentName, until: isBlock, ...(signal ? { signal } : {}) }));
  }

  /** For compaction when it exists: runs before the conversation is compacted. */
  async preCompact(emit: Emit, trigger: "manual" | "auto", customInstructions?: string): Promise<void> {
    await this.run("preCompact", emit, { trigger, ...(customInstructions ? { customInstructions } : {}) });
  }

  errorOccurred(emit: Emit, error: { errorType: string; message: string }): void {
    this.fireAndForget("errorOccurred", emit, { error: { name: error.errorType, message: error.message } });
  }

  notification(emit: Emit, notificationType: string, message: string): void {
    this.fireAndForget("notification", emit, { notificationType, message });
  }
}

/** A session with no hooks: every method returns at once. */
export const noHooks = (facts: SessionHookFacts): SessionHooks => new SessionHooks(undefined, facts);
