import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseCommandLine } from "../../src/cli/program.js";

describe("--acp", () => {
  // parseCommandLine reads the version the build defines.
  beforeEach(() => vi.stubGlobal("AGENT_VERSION", "test"));
  afterEach(() => vi.unstubAllGlobals());

  it("is a usage error with flags it would ignore (the editor sends prompts and picks sessions)", () => {
    expect(() => parseCommandLine(["--acp", "-p", "hello"])).toThrow("--acp takes its prompts and sessions from the editor: drop -p");
    expect(() => parseCommandLine(["--acp", "--fleet", "--continue"])).toThrow("drop --fleet, --continue");
    expect(() => parseCommandLine(["--acp", "--resume", "abc"])).toThrow("drop --resume");
    expect(parseCommandLine(["--acp", "--model", "m"]).acp).toBe(true);
  });
});
