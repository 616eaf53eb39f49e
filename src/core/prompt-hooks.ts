/**
 * The hooks around a person's prompt, as the main agent's runtime asks them: sessionStart (what it adds goes
 * with the first prompt), userPromptSubmitted (context, a rewritten prompt, or a block), userPromptTransformed
 * (the built message rewritten) and agentStop. An event without hooks adds nothing to the runtime's options, so
 * nothing is asked and nothing costs.
 */
import type { Emit } from "./event-sink.js";
import type { AgentRuntimeOptions, PromptAdmission, PromptInput } from "./runtime/agent-runtime.js";
import type { SessionHooks } from "./session-hooks.js";

export class PromptHooks {
  /** sessionStart's additionalContext, for the first prompt (kept for the next one when a hook blocks it). */
  private startContext: string | undefined;

  constructor(
    private readonly hooks: SessionHooks | undefined,
    private readonly emit: Emit,
  ) {}

  async sessionStart(source: "new" | "resume", initialPrompt?: string): Promise<void> {
    this.startContext = await this.hooks?.sessionStart(this.emit, source, initialPrompt);
  }

  runtimeOptions(): Pick<AgentRuntimeOptions, "beforePrompt" | "transformPrompt" | "onStop"> {
    const { hooks, emit } = this;
    if (!hooks) return {};
    return {
      ...(hooks.has("userPromptSubmitted") || hooks.has("sessionStart") ? { beforePrompt: (input, signal) => this.beforePrompt(input, signal) } : {}),
      ...(hooks.has("userPromptTransformed")
        ? { transformPrompt: (prompt, transformed, signal) => hooks.userPromptTransformed(emit, prompt, transformed, signal) }
        : {}),
      ...(hooks.has("agentStop") ? { onStop: (active, signal) => hooks.agentStop(emit, "end_turn", active, signal) } : {}),
    };
  }

  private async beforePrompt(input: PromptInput, signal: AbortSignal): Promise<PromptAdmission> {
    const submitted = (await this.hooks?.userPromptSubmitted(this.emit, input.prompt, signal)) ?? {};
    if (submitted.blocked !== undefined) return submitted;
    const startContext = this.startContext;
    this.startContext = undefined;
    return { ...submitted, ...(startContext !== undefined ? { startContext } : {}) };
  }
}
