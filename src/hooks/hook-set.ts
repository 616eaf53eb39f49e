/**
 * The loaded hooks of a session and the one way to run them: the hooks of an event, in order, each
 * reported (start, end, a warning when it misbehaves). What a hook answered is read by ./decisions.ts.
 * An event with no hooks costs a map lookup: nothing is spawned and no file is read.
 */
import { randomUUID } from "node:crypto";
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

function failureOf(hook: HookDefinition, run: HookRunResult): string | undefined {
  if (run.aborted) return undefined;
  if (run.startError) return `could not start: ${run.startError}`;
  if (run.timedOut) return `timed out after ${hook.timeoutMs / 1000} s and was stopped`;
  if (run.exitCode !== undefined && run.exitCode !== 0 && run.exitCode !== 2) {
    const stderr = run.stderr.trim().split("\n").slice(-3).join(" ").slice(0, 300);
    return `exited with code ${run.exitCode}${stderr ? `: ${stderr}` : ""}`;
  }
  if (run.badJson) return "printed output that is not valid JSON; it was ignored";
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
    let problem = failureOf(hook, run);
    if (!problem && run.exitCode === 2) answer.blocked = run.stderr.trim() || `Blocked by a ${event} hook.`;
    if (!problem && run.json) {
      const schema = hookOutputSchemas[event];
      const checked = schema ? schema.safeParse(run.json) : { success: true as const, data: run.json };
      if (checked.success) answer.output = checked.data;
      else
        problem = `printed an answer ${event} does not understand (${checked.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}); it was ignored`;
    }
    const output = answer.output ?? (run.stdout.trim() ? { stdout: run.stdout.slice(0, 2000) } : undefined);
    reporter.end({
      hookInvocationId,
      hookType: event,
      ...(output !== undefined ? { output } : {}),
      success: problem === undefined,
      ...(problem ? { error: { message: problem } } : {}),
    });
    if (problem) reporter.warn(`The ${event} hook \`${hook.command.slice(0, 80)}\` (${describeSource(hook)}) ${problem}.`);
    return answer;
  }
}
