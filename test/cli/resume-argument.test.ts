/**
 * `agent --resume <session>` in a terminal skips the command-line parser (src/cli/resume-argument.ts, main.ts):
 * the options it starts the TUI with must be the parser's, and whatever the parser could read otherwise is left
 * to the parser.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultCliOptions } from "../../src/cli/default-options.js";
import { parseCommandLine } from "../../src/cli/program.js";
import { resumeArgument } from "../../src/cli/resume-argument.js";

beforeEach(() => vi.stubGlobal("AGENT_VERSION", "test"));
afterEach(() => vi.unstubAllGlobals());

describe("agent --resume <session> without the parser", () => {
  it.each([
    [["--resume", "0d3c6a1e-2f44-4a8e-9b7e-5c1f0e9d2a77"]],
    [["--resume", "0d3c6a1"]],
    [["-r", "my session"]],
    [["--resume=0d3c6a1"]],
    [["--resume", "mcp"]],
  ])("reads %j as the parser does, with the same options", (args) => {
    const session = resumeArgument(args);
    expect(session).toBeDefined();
    const parsed = parseCommandLine(args);
    expect(session).toBe(parsed.resume);
    // The bare `agent`'s options (main.ts): the parser's, but for the MCP flags' empty lists, which mean none either way.
    const { mcp, ...rest } = parsed;
    expect(mcp).toEqual({ additional: [], disabled: [], secretEnvVars: [], allowAllInstructions: false });
    expect({ ...defaultCliOptions(), resume: session }).toEqual(rest);
  });

  it.each([
    [[]],
    [["--resume"]],
    [["--resume="]],
    [["--resume", "-p"]],
    [["--resume", "--help"]],
    [["--resume", "abc", "-p", "hi"]],
    [["--resume", "abc", "--model", "m"]],
    [["--continue"]],
    [["-rabc"]],
    [["--resume", ""]],
  ])("leaves %j to the parser", (args) => {
    expect(resumeArgument(args)).toBeUndefined();
  });
});
