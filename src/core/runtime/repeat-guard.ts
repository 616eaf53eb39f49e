/**
 * The doom-loop guard (opencode's idea, in our own terms): a model that makes the same tool call (same name,
 * same arguments) again and again is stuck, and each repeat costs a turn. The third identical call in a row
 * is not run: the model gets a result telling it to change approach. A further repeat ends the run where
 * nobody can be asked (autopilot, or no person or client to answer); otherwise the person is asked whether
 * the call may run anyway. Calls of tools that poll (read_bash, read_agent) are not counted, and a person's
 * message starts the count again.
 */
import type { ToolRequest } from "../../protocol/events/index.js";
import type { RefusedCall, ToolRunEnvironment } from "../tool-runner.js";

/** The identical call, counted in a row, that is not run. */
export const REPEAT_LIMIT = 3;

const RUN_ANYWAY = "Run it anyway";
const STOP = "Stop the agent";

/** Arguments as one string whatever the order of their keys, so `{a,b}` and `{b,a}` are the same call. */
export function canonicalArguments(value: unknown): string {
  return JSON.stringify(value ?? {}, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1)))
      : inner,
  );
}

/** Why the run was ended by the guard (a RunResult error of kind "doom_loop"). */
export interface RepeatStop {
  kind: "doom_loop";
  message: string;
}

export class RepeatGuard {
  private last: string | undefined;
  private streak = 0;

  /** `unattended`: nobody watches the run (autopilot), so a repeat after the warning ends it without asking. */
  constructor(private readonly unattended: () => boolean) {}

  /** A person's message joined the conversation: what follows is a new attempt, not a repeat. */
  reset(): void {
    this.last = undefined;
    this.streak = 0;
  }

  /** Counts one call: its place in the run of identical calls (0 for a call that is not counted). */
  private count(request: ToolRequest, env: ToolRunEnvironment): number {
    if (env.tools.get(request.name)?.polls) {
      this.reset();
      return 0;
    }
    const key = `${request.name}\n${canonicalArguments(request.arguments)}`;
    this.streak = key === this.last ? this.streak + 1 : 1;
    this.last = key;
    return this.streak;
  }

  /**
   * Looks at one response's calls in order before they run: a repeat is added to `refused` (it gets its
   * result without running). Returns why the run must end after this batch, when it must.
   */
  async judge(
    requests: readonly ToolRequest[],
    refused: Map<string, RefusedCall>,
    env: ToolRunEnvironment,
    signal: AbortSignal,
  ): Promise<RepeatStop | undefined> {
    let stop: RepeatStop | undefined;
    for (const request of requests) {
      const place = this.count(request, env);
      if (place < REPEAT_LIMIT) continue;
      if (stop) {
        refused.set(request.toolCallId, stopped(request.name));
        continue;
      }
      if (place === REPEAT_LIMIT) {
        refused.set(request.toolCallId, {
          code: "repeated_call",
          message: `Not run: you have called ${request.name} with the same arguments ${REPEAT_LIMIT} times in a row, and the earlier results are above. Repeating it will not get you further. Change your approach: other arguments, another tool, or stop and say what is blocking you.`,
        });
        continue;
      }
      if (!this.unattended() && (await this.askToRun(request.name, place, env, signal))) {
        // A person let it run: the count starts again from this call.
        this.streak = 1;
        continue;
      }
      refused.set(request.toolCallId, stopped(request.name));
      stop = {
        kind: "doom_loop",
        message: `The agent called ${request.name} with the same arguments ${place} times in a row, repeating it after it was told to change approach, so the run was stopped.`,
      };
    }
    return stop;
  }

  /** With a person or client to answer: whether they let the call run. Nobody to ask, or no answer, is a no. */
  private async askToRun(name: string, place: number, env: ToolRunEnvironment, signal: AbortSignal): Promise<boolean> {
    const answer = await env.ask(
      "user_input",
      {
        question: `The agent has called ${name} with the same arguments ${place} times in a row, and repeated it after it was told to change approach. Run it anyway, or stop the agent?`,
        choices: [RUN_ANYWAY, STOP],
        allowFreeform: false,
      },
      signal,
    );
    return answer.source === "person" && "answer" in answer.reply && answer.reply.answer === RUN_ANYWAY;
  }
}

function stopped(name: string): RefusedCall {
  return { code: "doom_loop", message: `Not run: ${name} was called with the same arguments again after the warning, so the run was stopped.` };
}
