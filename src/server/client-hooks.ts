/**
 * A client's hooks (the Copilot SDK's `hooks: {onPreToolUse, …}`): one hook per event the SDK has a
 * handler slot for, each answered by the client through `hooks.invoke`. They run where hook files' hooks
 * run, with the same payload and the same reading of the answer (src/core/session-hooks.ts).
 */
import { HookSet, type HookPolicy } from "../hooks/hook-set.js";
import type { HookEventName } from "../hooks/hook-schema.js";
import { DEFAULT_HOOK_TIMEOUT_SEC } from "../hooks/load-hooks.js";

/** The events the SDK dispatches to a handler; the others it answers with nothing, so they are not asked. */
const CLIENT_HOOK_EVENTS: readonly HookEventName[] = [
  "sessionStart",
  "sessionEnd",
  "userPromptSubmitted",
  "userPromptTransformed",
  "preToolUse",
  "preMcpToolCall",
  "postToolUse",
  "postToolUseFailure",
  "agentStop",
  "errorOccurred",
];

/** The payload as the SDK's handlers read it: a tool's arguments as the object they are. */
function clientInput(payload: Record<string, unknown>): Record<string, unknown> {
  if (typeof payload.toolArgs !== "string") return payload;
  try {
    return { ...payload, toolArgs: JSON.parse(payload.toolArgs) as unknown };
  } catch {
    return payload;
  }
}

export function clientHooks(
  invoke: (hookType: HookEventName, input: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>,
  cwd: string,
  policy?: HookPolicy,
): HookSet {
  return new HookSet(
    CLIENT_HOOK_EVENTS.map((event) => ({
      event,
      command: `the client's ${event} hook`,
      timeoutMs: DEFAULT_HOOK_TIMEOUT_SEC * 1000,
      source: { kind: "settings" as const, file: "the SDK client" },
      invoke: (payload: Record<string, unknown>, signal?: AbortSignal) => invoke(event, clientInput(payload), signal),
    })),
    cwd,
    [],
    policy,
  );
}

/** The hook files' hooks and the client's, as one set: every hook of an event runs, the files' first. */
export function combineHooks(cwd: string, ...sets: (HookSet | undefined)[]): HookSet | undefined {
  const present = sets.filter((set): set is HookSet => set !== undefined);
  if (present.length <= 1) return present[0];
  return new HookSet(
    present.flatMap((set) => set.definitions),
    cwd,
    present.flatMap((set) => set.problems),
    { failOpen: present.some((set) => set.policy.failOpen) },
  );
}

/** A session's hooks with the client's: the hook files' (when any) first, then the client's. */
export function withClientHooks(
  cwd: string,
  fromFiles: HookSet | undefined,
  invoke: (hookType: HookEventName, input: Record<string, unknown>, signal?: AbortSignal) => Promise<unknown>,
  policy?: HookPolicy,
): HookSet | undefined {
  return combineHooks(cwd, fromFiles, clientHooks(invoke, cwd, policy));
}
