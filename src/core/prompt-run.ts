/**
 * One prompt, from the tool loop to its end: the loop runs until the model stops, then the mode decides
 * whether to continue (autopilot's nudge, up to the limit) or stop, then stop hooks may send it back to
 * work. The result says how it ended.
 */
import { runToolLoop, type LoopContext } from "./agent-loop.js";
import type { RunResult } from "../protocol/commands.js";
import type { Emit } from "./event-sink.js";
import type { ModePreset } from "./modes.js";

export interface PromptRunContext {
  loop: LoopContext;
  emit: Emit;
  /** The current mode (it may change while the prompt runs). */
  preset(): ModePreset;
  maxContinues: number;
  /** What autopilot works toward, repeated in its continuations. */
  objective?(): string | undefined;
  /** Injects the mode's continuation message as a user message. */
  continueWith(message: string): void;
  /**
   * The loop ended without finishing while the mode would go on (autopilot): when background agents of this
   * agent are running, waits until one answers or ends and says true (the loop then goes on with that news,
   * which is what it was waiting for, instead of the continuation nudge); false when none runs.
   */
  awaitBackground?(signal: AbortSignal): Promise<boolean>;
  /** The prompt's run ended (the agentStop / subagentStop hook): a reason to go on with, or undefined. */
  onStop?(stopHookActive: boolean, signal: AbortSignal): Promise<string | undefined>;
  /** Injects a stop hook's reason as a user message. */
  continueForHook?(reason: string): void;
}

/** How many times stop hooks may send the agent back to work in one prompt, so a hook cannot loop forever. */
export const MAX_STOP_HOOK_CONTINUATIONS = 3;

/** The prompt's turns, then what stop hooks send it back to do. */
export async function runPromptToStop(context: PromptRunContext, signal: AbortSignal, result: RunResult): Promise<void> {
  // A rejected call is not a natural stop: the agent waits for the person, so stop hooks are not asked.
  let rejected = await runPrompt(context, signal, result);
  const { onStop } = context;
  for (
    let blocks = 0;
    onStop && !rejected && blocks < MAX_STOP_HOOK_CONTINUATIONS && !signal.aborted && (result.outcome === "completed" || result.outcome === "task_complete");
    blocks++
  ) {
    const reason = await onStop(blocks > 0, signal);
    if (reason === undefined || signal.aborted) break;
    context.continueForHook?.(reason);
    result.outcome = "completed";
    rejected = await runPrompt(context, signal, result);
  }
}

/** Runs the prompt's loop (and the mode's continuations); true when it ended on a rejected call. */
export async function runPrompt(context: PromptRunContext, signal: AbortSignal, result: RunResult): Promise<boolean> {
  for (;;) {
    const outcome = await runToolLoop(context.loop, signal);
    // The person said no: the run ends here, whatever the mode would do next.
    if (outcome.kind === "rejected") return true;
    if (outcome.kind === "task_complete") {
      result.outcome = "task_complete";
      result.summary = outcome.summary;
      return false;
    }
    if (outcome.kind === "aborted") {
      result.outcome = "aborted";
      return false;
    }
    if (outcome.kind === "error") {
      result.outcome = "error";
      result.error = { kind: outcome.error.kind, message: outcome.error.message, statusCode: outcome.error.statusCode };
      if (context.preset().announcesStops) {
        context.emit("session.autopilot_stopped", {
          reason: "error",
          continuations: result.continuations,
          message: `Autopilot stopped: ${outcome.error.message}`,
        });
      }
      return false;
    }
    const objective = context.objective?.();
    const next = context.preset().onLoopEnd({ continuations: result.continuations, maxContinues: context.maxContinues, ...(objective ? { objective } : {}) });
    if (next.action === "stop") return false;
    if (context.awaitBackground && (await context.awaitBackground(signal))) continue;
    if (signal.aborted) {
      result.outcome = "aborted";
      return false;
    }
    if (next.action === "stop_at_limit") {
      result.outcome = "max_continues";
      context.emit("session.autopilot_stopped", { reason: "max_continues", continuations: result.continuations, message: next.message });
      return false;
    }
    result.continuations++;
    context.continueWith(next.message);
  }
}
