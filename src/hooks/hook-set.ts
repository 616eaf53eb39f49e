/**
 * The loaded hooks of a session and the one way to run them: the hooks of an event, in order, each
 * reported (start, end, a warning when it misbehaves). What a hook answered is read by ./decisions.ts.
 * An event with no hooks costs a map lookup: nothing is spawned and no file is read.
 *
 * A policy hook (preToolUse, permissionRequest) that breaks fails closed: a non-zero exit other than 2, a
 * crash, a timeout, output that is not a JSON object or an answer the event does not understand is a failed
 * answer, which denies the call. Teams that prefer a broken policy to let calls through set `failOpen`
 * (settings.json's `policyHooksFailOpen`). Every other event reports the failure and goes on.
 */
import { randomUUID } from "../util/random-id.js";
import { hookOutputSchemas, type HookEventName } from "./hook-schema.js";
import type { HookDefinition } from "./load-hooks.js";
import { invokeClientHook, runHookCommand, type HookRunResult } from "./run-hook.js";

/** How a run is told: the core turns these into hook.start / hook.end / session.warning events. */
export interface HookReporter {
  start(data: { hookInvocationId: string; hookType: HookEventName; input: unknown }): void;
  end(data: { hookInvocationId: string; hookType: HookEventName; output?: unknown; success: boolean; error?: { message: string } }): void;
  warn(message: string): void;
}

/** One hook's answer as the decisions read it. */
export interface HookAnswer {
  hook: HookDefinition;
  /** The validated JSON it printed (absent when it printed none, or something unusable). */
  output?: Record<string, unknown>;
  /** Exit code 2: it blocks, with its stderr as the reason. */
  blocked?: string;
  /** A policy hook broke (what went wrong): the call it was asked about is denied. */
  failed?: string;
}

/** The events whose hooks decide whether a tool call runs: a broken one must not silently allow it. */
export const POLICY_EVENTS: readonly HookEventName[] = ["preToolUse", "permissionRequest"];

export interface HookPolicy {
  /** A broken policy hook is reported and ignored instead of denying (settings.json's `policyHooksFailOpen`). */
  failOpen: boolean;
}

export interface RunHooksOptions {
  /** What a matcher is tested against (the tool's or the agent's name). */
  matchValue?: string;
  /** Stop at the first answer for which this is true (a deny, a block). */
  until?(answer: HookAnswer): boolean;
  /** The interrupt of the work the hooks belong to: a running hook is killed, the rest are not started. */
  signal?: AbortSignal;
}

function describeSource(hook: HookDefinition): string {
  return hook.source.file;
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-3).join(" ").slice(0, 300);
}

/** What went wrong with a run, if anything; plain-text output counts only for a policy hook. */
function failureOf(hook: HookDefinition, run: HookRunResult, policy: boolean): string | undefined {
  if (run.aborted) return undefined;
  if (run.startError) return `could not start: ${run.startError}`;
  if (run.timedOut) return `timed out after ${hook.timeoutMs / 1000} s and was stopped`;
  if (run.signal) return `was killed by ${run.signal}${lastLines(run.stderr) ? `: ${lastLines(run.stderr)}` : ""}`;
  if (run.exitCode !== undefined && run.exitCode !== 0 && run.exitCode !== 2) {
    return `exited with code ${run.exitCode}${lastLines(run.stderr) ? `: ${lastLines(run.stderr)}` : ""}`;
  }
  if (run.badJson) return "printed output that is not valid JSON";
  if (policy && run.notJson && run.exitCode !== 2) return "printed output that is not a JSON object";
  return undefined;
}

export class HookSet {
  private readonly byEvent = new Map<HookEventName, HookDefinition[]>();

  constructor(
    readonly definitions: readonly HookDefinition[],
    /** Where a hook without its own cwd runs. */
    private readonly cwd: string,
    /** Files or entries that could not be loaded, told once when the session starts. */
    readonly problems: readonly string[] = [],
    readonly policy: HookPolicy = { failOpen: false },
  ) {
    for (const hook of definitions) {
      const list = this.byEvent.get(hook.event) ?? [];
      list.push(hook);
      this.byEvent.set(hook.event, list);
    }
  }

  has(event: HookEventName): boolean {
    return this.byEvent.has(event);
  }

  /** Runs the event's hooks (those whose matcher matches) one after another. */
  async run(event: HookEventName, payload: Record<string, unknown>, reporter: HookReporter, options: RunHooksOptions = {}): Promise<HookAnswer[]> {
    const hooks = this.byEvent.get(event);
    if (!hooks) return [];
    const answers: HookAnswer[] = [];
    for (const hook of hooks) {
      if (options.signal?.aborted) break;
      if (hook.matcher && !hook.matcher.test(options.matchValue ?? "")) continue;
      const answer = await this.runOne(event, hook, payload, reporter, options.signal);
      answers.push(answer);
      if (options.until?.(answer)) break;
    }
    return answers;
  }

  private async runOne(
    event: HookEventName,
    hook: HookDefinition,
    payload: Record<string, unknown>,
    reporter: HookReporter,
    signal?: AbortSignal,
  ): Promise<HookAnswer> {
    const hookInvocationId = randomUUID();
    reporter.start({ hookInvocationId, hookType: event, input: payload });
    const run = hook.invoke ? await invokeClientHook({ ...hook, invoke: hook.invoke }, payload, signal) : await runHookCommand(hook, payload, this.cwd, signal);
    const answer: HookAnswer = { hook };
    if (run.aborted) {
      reporter.end({ hookInvocationId, hookType: event, success: false, error: { message: "interrupted" } });
      return answer;
    }
    const policy = POLICY_EVENTS.includes(event);
    let problem = failureOf(hook, run, policy);
    if (!problem && run.exitCode === 2) answer.blocked = run.stderr.trim() || `Blocked by a ${event} hook.`;
    if (!problem && run.json) {
      const schema = hookOutputSchemas[event];
      const checked = schema ? schema.safeParse(run.json) : { success: true as const, data: run.json };
      if (checked.success) answer.output = checked.data;
      else
        problem = `printed an answer ${event} does not understand (${checked.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")})`;
    }
    const denies = problem !== undefined && policy && !this.policy.failOpen;
    if (denies) answer.failed = problem;
    const output = answer.output ?? (run.stdout.trim() ? { stdout: run.stdout.slice(0, 2000) } : undefined);
    reporter.end({
      hookInvocationId,
      hookType: event,
      ...(output !== undefined ? { output } : {}),
      success: problem === undefined,
      ...(problem ? { error: { message: problem } } : {}),
    });
    if (problem) {
      const outcome = denies
        ? "the hook failed, so the tool call is denied (set policyHooksFailOpen in settings.json to let calls through instead)"
        : "it was ignored";
      reporter.warn(`The ${event} hook \`${hook.command.slice(0, 80)}\` (${describeSource(hook)}) ${problem}; ${outcome}.`);
    }
    return answer;
  }
}
