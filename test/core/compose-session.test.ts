/**
 * composeSessionOptions is where settings.json and the command line become a session's options for every
 * face: memory's start (on or off) follows the face's rule (-p needs --enable-memory, the others follow
 * settings.json), /memory on|off is kept in settings.json, and compaction comes from settings.json alike.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Settings } from "../../src/config/settings.js";
import { composeSessionOptions, type SessionComposition } from "../../src/core/compose-session.js";
import { DEFAULT_SUBAGENT_LIMITS } from "../../src/core/tasks/limits.js";
import { noPermissionFlags } from "../../src/permissions/policy.js";
import { SessionStore } from "../../src/session/session-store.js";
import { tempDir } from "../support/engine-harness.js";

function compose(settings: Settings, extra: Partial<SessionComposition> = {}, enableMemory?: boolean) {
  const agentHome = tempDir("compose-home-");
  const options = composeSessionOptions({
    settings,
    flags: { cwd: tempDir("compose-cwd-"), customInstructions: true, ...(enableMemory ? { enableMemory } : {}) },
    agentHome,
    store: new SessionStore(agentHome),
    permissions: { flags: noPermissionFlags, rules: [], disabledFloorChecks: [] },
    maxAutopilotContinues: 5,
    subagentLimits: DEFAULT_SUBAGENT_LIMITS,
    face: { interactive: false },
    ...extra,
  });
  return { options, agentHome };
}

describe("composeSessionOptions", () => {
  it("starts memory by the face's rule: -p only with --enable-memory, the other faces as settings.json says", () => {
    const on: Settings = { memory: { enabled: true } };
    expect(compose(on, { memory: "prompt" }).options.memory?.enabled).toBe(false);
    expect(compose({}, { memory: "prompt" }, true).options.memory?.enabled).toBe(true);
    expect(compose(on, { memory: "server" }).options.memory?.enabled).toBe(true);
    expect(compose(on, { memory: "interactive" }).options.memory?.enabled).toBe(true);
    expect(compose({}, { memory: "server" }).options.memory?.enabled).toBe(false);
    expect(compose({ memory: { boardTokens: 900 } }, { memory: "server" }).options.memory?.settings.boardTokens).toBe(900);
  });

  it("gives no memory where the face asks for none (a test harness's session)", () => {
    expect(compose({ memory: true }).options.memory).toBeUndefined();
  });

  it("keeps /memory on|off in the agent home's settings.json", () => {
    const { options, agentHome } = compose({}, { memory: "server" });
    expect(options.memory?.persist?.(true)).toBeUndefined();
    expect(JSON.parse(readFileSync(path.join(agentHome, "settings.json"), "utf8")).memory).toEqual({ enabled: true });
  });

  it("takes compaction from settings.json, and the face's overrides last", () => {
    const { options } = compose({ compaction: { threshold: 0.5 } }, { face: { interactive: true } });
    expect(options.compaction).toEqual({ threshold: 0.5 });
    expect(options.interactive).toBe(true);
  });
});
