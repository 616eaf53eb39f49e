import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UsageError } from "../../src/cli/cli-options.js";
import { parseCommandLine } from "../../src/cli/program.js";

describe("the plan-mode and ask_user flags", () => {
  // parseCommandLine reads the version the build defines.
  beforeEach(() => vi.stubGlobal("AGENT_VERSION", "test"));
  afterEach(() => vi.unstubAllGlobals());

  it("--plan and --mode plan start in plan mode; --plan --autopilot plans, then accepts unattended", () => {
    expect(parseCommandLine(["--plan"]).mode).toBe("plan");
    expect(parseCommandLine(["--mode", "plan"]).mode).toBe("plan");
    expect(parseCommandLine(["--plan"]).autoAcceptPlan).toBeUndefined();
    const both = parseCommandLine(["--plan", "--autopilot"]);
    expect([both.mode, both.autoAcceptPlan]).toEqual(["plan", true]);
    expect(() => parseCommandLine(["--plan", "--mode", "interactive"])).toThrow(UsageError);
    expect(() => parseCommandLine(["--autopilot", "--mode", "interactive"])).toThrow(UsageError);
  });

  it("Copilot's spelling --plan --mode autopilot (and --mode plan --autopilot) is --plan --autopilot", () => {
    for (const args of [
      ["--plan", "--mode", "autopilot"],
      ["--mode", "plan", "--autopilot"],
    ]) {
      const parsed = parseCommandLine(args);
      expect([parsed.mode, parsed.autoAcceptPlan]).toEqual(["plan", true]);
    }
    const autopilotOnly = parseCommandLine(["--mode", "autopilot"]);
    expect([autopilotOnly.mode, autopilotOnly.autoAcceptPlan]).toEqual(["autopilot", undefined]);
  });

  it("--no-ask-user hides the tool; ask_user and exit_plan_mode are names --excluded-tools knows", () => {
    expect(parseCommandLine(["--no-ask-user"]).permissions.excludedTools).toEqual(["ask_user"]);
    expect(parseCommandLine([]).permissions.excludedTools).toBeUndefined();
    expect(parseCommandLine(["--excluded-tools", "exit_plan_mode"]).permissions.excludedTools).toEqual(["exit_plan_mode"]);
  });
});
