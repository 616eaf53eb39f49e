/**
 * The command line in server mode: the SDK's flags after the caller's own, Copilot's flags this agent lacks
 * ignored, a flag neither knows refused before the handshake (as Copilot's runtime refuses it); the transport.
 */
import { CommanderError } from "commander";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseCommandLine } from "../../src/cli/program.js";
import { buildCommand } from "../../src/cli/program.js";
import { serverPort } from "../../src/cli/server-mode.js";
import { unknownServerFlag } from "../../src/cli/server-flags.js";

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

  it("knows every flag of the command line, Copilot's and the SDK's, before the parser loads", () => {
    const longs = buildCommand().options.flatMap((option) => (option.long ? [option.long] : []));
    expect(longs.length).toBeGreaterThan(30);
    for (const long of longs) expect(unknownServerFlag([long]), long).toBeUndefined();
    for (const copilotOnly of ["--banner", "--experimental", "--no-experimental", "--config-dir=/x", "--screen-reader"]) {
      expect(unknownServerFlag(["--headless", copilotOnly, "--stdio"]), copilotOnly).toBeUndefined();
    }
  });

  it("names the first flag neither knows, in any spelling, and leaves values and what follows -- alone", () => {
    expect(unknownServerFlag(["--headless", "--nonexistent-flag-for-testing", "--stdio"])).toBe("--nonexistent-flag-for-testing");
    expect(unknownServerFlag(["--headless", "--stdio", "--bogus=1"])).toBe("--bogus");
    expect(unknownServerFlag(["--headless", "--no-such-thing"])).toBe("--no-such-thing");
    expect(unknownServerFlag(["--model", "m", "-p", "x", "--", "--anything"])).toBeUndefined();
  });
});
