/** A command hook definition for the hook tests: a preToolUse hook from a user file unless `extra` says otherwise. */
import type { HookDefinition } from "../../src/hooks/load-hooks.js";

export const hookDefinition = (command: string, extra: Partial<HookDefinition> = {}, file = "/test/hooks.json"): HookDefinition => ({
  event: "preToolUse",
  command,
  timeoutMs: 5000,
  source: { kind: "user", file },
  ...extra,
});
