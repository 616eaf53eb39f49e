import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { asFleetInput } from "../../src/cli/fleet-input.js";
import { parseCommandLine } from "../../src/cli/program.js";

describe("--fleet", () => {
  // parseCommandLine reads the version the build defines.
  beforeEach(() => vi.stubGlobal("AGENT_VERSION", "test"));
  afterEach(() => vi.unstubAllGlobals());

  it("is parsed, and absent by default", () => {
    expect(parseCommandLine(["--fleet", "-p", "build it"]).fleet).toBe(true);
    expect(parseCommandLine(["-p", "build it"]).fleet).toBeUndefined();
  });

  it("turns a prompt into /fleet <prompt>, leaving slash commands, !commands and empty input alone", () => {
    expect(asFleetInput("build it")).toBe("/fleet build it");
    expect(asFleetInput("  build\nit")).toBe("/fleet build\nit");
    expect(asFleetInput("/review")).toBe("/review");
    expect(asFleetInput("!ls")).toBe("!ls");
    expect(asFleetInput("  ")).toBe("  ");
  });
});

describe("the sql tool's name", () => {
  beforeEach(() => vi.stubGlobal("AGENT_VERSION", "test"));
  afterEach(() => vi.unstubAllGlobals());

  it("is one --excluded-tools knows, and agent files may name it (or Claude Code's TodoWrite)", async () => {
    expect(parseCommandLine(["--excluded-tools", "sql"]).permissions.excludedTools).toEqual(["sql"]);
    const { resolveToolNames } = await import("../../src/config/agent-tool-aliases.js");
    expect(resolveToolNames(["sql", "TodoWrite"])?.tools).toEqual(["sql"]);
  });
});
