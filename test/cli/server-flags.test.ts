/** The command line in server mode: the SDK's flags after the caller's own, unknown ones ignored; the transport. */
import { CommanderError } from "commander";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseCommandLine } from "../../src/cli/program.js";
import { serverPort } from "../../src/cli/server-mode.js";

describe("server flags", () => {
  // parseCommandLine reads the version the build defines.
  beforeEach(() => vi.stubGlobal("AGENT_VERSION", "test"));
  afterEach(() => vi.unstubAllGlobals());

  it("reads the caller's flags and ignores the SDK's and unknown ones", () => {
    const options = parseCommandLine([
      "--allow-all-tools",
      "--model",
      "m1",
      "--some-future-flag",
      "--headless",
      "--no-auto-update",
      "--log-level",
      "debug",
      "--stdio",
      "--auth-token-env",
      "COPILOT_SDK_AUTH_TOKEN",
      "--no-auto-login",
      "--session-idle-timeout",
      "30",
      "--remote",
    ]);
    expect(options.permissions.allowAllTools).toBe(true);
    expect(options.model).toBe("m1");
    expect(options.server).toEqual({});
  });

  it("still refuses unknown flags outside server mode", () => {
    expect(() => parseCommandLine(["--some-future-flag", "-p", "hi"])).toThrow(CommanderError);
  });

  it("picks stdio with --stdio, else TCP on --port or a free port", () => {
    expect(serverPort(["--headless", "--no-auto-update", "--stdio"])).toBeUndefined();
    expect(serverPort(["--headless", "--port", "4321"])).toBe(4321);
    expect(serverPort(["--headless", "--port=4322"])).toBe(4322);
    expect(serverPort(["--headless", "--no-auto-update"])).toBe(0);
  });
});
