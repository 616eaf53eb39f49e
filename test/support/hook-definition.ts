/** A command hook definition for the hook tests: a preToolUse hook from a user file unless `extra` says otherwise. */
import type { HookDefinition } from "../../src/hooks/load-hooks.js";

export const hookDefinition = (command: string, extra: Partial<HookDefinition> = {}, file = "/test/hooks.json"): HookDefinition => ({
  event: "preToolUse",
  command,
  // Generous: a loaded machine must not turn a quick hook into a timeout.
  timeoutMs: 20_000,
  source: { kind: "user", file },
  ...extra,
});
