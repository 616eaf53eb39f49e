/**
 * Runs one hook command: bash -c in its own process group, the payload as JSON on stdin, a timeout after
 * which the whole group is killed. It never throws: a hook that fails to start, exits badly, crashes, hangs or
 * prints garbage comes back as a result the caller judges (./hook-set.ts).
 */
import type { HookDefinition } from "./load-hooks.js";
import { monotonicMs } from "../util/monotonic-clock.js";

export interface HookRunResult {
  exitCode?: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, when it was a JSON object. */
  json?: Record<string, unknown>;
  /** stdout looked like JSON (started with `{`) but did not parse. */
  badJson?: boolean;
  /** stdout had something in it that is not a JSON object (plain text, binary). */
  notJson?: boolean;
  /** The signal that ended it, when one did (a crash, a kill from outside). */
  signal?: string;
  timedOut: boolean;
  /** Stopped because the work it belonged to was interrupted. */
  aborted?: boolean;
  /** It could not be run at all (no such cwd, no bash). */
  startError?: string;
  durationMs: number;
}

/** Enough for any decision a hook prints; more is cut rather than held in memory. */
const MAX_OUTPUT_BYTES = 1024 * 1024;

let execaModule: Promise<typeof import("execa")> | undefined;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

function parseStdout(stdout: string): Pick<HookRunResult, "json" | "badJson" | "notJson"> {
  const text = stdout.trim();
  if (text === "") return {};
  if (!text.startsWith("{")) return { notJson: true };
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? { json: value as Record<string, unknown> } : { badJson: true };
  } catch {
    return { badJson: true };
  }
}

export async function runHookCommand(
  hook: Pick<HookDefinition, "command" | "cwd" | "env" | "timeoutMs">,
  payload: unknown,
  fallbackCwd: string,
  signal?: AbortSignal,
): Promise<HookRunResult> {
  const started = monotonicMs();
  const { execa } = await (execaModule ??= import("execa"));
  let timedOut = false;
  const subprocess = execa("bash", ["-c", hook.command], {
    cwd: hook.cwd ?? fallbackCwd,
    env: hook.env ?? {},
    input: `${JSON.stringify(payload)}\n`,
    detached: true,
    reject: false,
    cleanup: true,
    stripFinalNewline: false,
    maxBuffer: MAX_OUTPUT_BYTES,
    windowsHide: true,
  });
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(subprocess.pid);
  }, hook.timeoutMs);
  // An interrupt does not wait for a hook: its group goes at once.
  const onAbort = () => killGroup(subprocess.pid);
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  try {
    const result = await subprocess;
    const stdout = typeof result.stdout === "string" ? result.stdout : "";
    const stderr = typeof result.stderr === "string" ? result.stderr : "";
    const durationMs = monotonicMs() - started;
    if (signal?.aborted && !timedOut) return { stdout, stderr, timedOut, aborted: true, durationMs };
    if (result.failed && result.exitCode === undefined && !timedOut) {
      if (result.signal) return { stdout, stderr, timedOut, signal: result.signal, durationMs };
      return { stdout, stderr, timedOut, startError: result.shortMessage ?? result.message, durationMs };
    }
    return {
      ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
      stdout,
      stderr,
      timedOut,
      durationMs,
      ...(timedOut ? {} : parseStdout(stdout)),
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
    // A hook's leftovers (a backgrounded child) go with it.
    killGroup(subprocess.pid);
  }
}

/** A client's hook (HookDefinition.invoke), with the same timeout and the same result shape as a command's. */
export async function invokeClientHook(
  hook: HookDefinition & { invoke: NonNullable<HookDefinition["invoke"]> },
  payload: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<HookRunResult> {
  const started = monotonicMs();
  const result = (partial: Partial<HookRunResult>): HookRunResult => ({
    stdout: "",
    stderr: "",
    timedOut: false,
    durationMs: monotonicMs() - started,
    ...partial,
  });
  if (signal?.aborted) return result({ aborted: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), hook.timeoutMs)));
  const aborted = new Promise<"aborted">((resolve) => signal?.addEventListener("abort", () => resolve("aborted"), { once: true }));
  try {
    const answer = await Promise.race([hook.invoke(payload, signal), timeout, aborted]);
    if (answer === "timeout") return result({ timedOut: true });
    if (answer === "aborted") return result({ aborted: true });
    if (answer === undefined || answer === null) return result({ exitCode: 0 });
    if (typeof answer !== "object" || Array.isArray(answer)) return result({ exitCode: 0, badJson: true });
    return result({ exitCode: 0, json: answer as Record<string, unknown> });
  } catch (error) {
    return result({ startError: (error as Error).message });
  } finally {
    clearTimeout(timer);
  }
}
