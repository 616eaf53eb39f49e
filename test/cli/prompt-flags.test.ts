/** How the command line says where the prompt comes from, and which face runs it. */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UsageError } from "../../src/cli/cli-options.js";
import { parseCommandLine } from "../../src/cli/program.js";
import { runsHeadless } from "../../src/cli/prompt-source.js";

beforeEach(() => vi.stubGlobal("AGENT_VERSION", "test"));
afterEach(() => vi.unstubAllGlobals());

const terminal = { stdin: true, stdout: true };
const piped = { stdin: false, stdout: true };
const redirected = { stdin: true, stdout: false };

describe("the prompt flags", () => {
  it("-p with and without a prompt, -i, and a prompt as the only argument", () => {
    expect(parseCommandLine(["-p", "hi"])).toMatchObject({ prompt: "hi" });
    expect(parseCommandLine(["-p"])).toMatchObject({ promptFromStdin: true });
    expect(parseCommandLine(["-p"]).prompt).toBeUndefined();
    expect(parseCommandLine(["-sp", "hi"])).toMatchObject({ prompt: "hi", silent: true });
    expect(parseCommandLine(["-i", "hi"])).toMatchObject({ firstPrompt: { text: "hi", interactive: true } });
    expect(parseCommandLine(["fix the bug"])).toMatchObject({ firstPrompt: { text: "fix the bug", interactive: false } });
    expect(parseCommandLine(["-p", "--help me"])).toMatchObject({ prompt: "--help me" });
  });

  it("refuses what is ambiguous", () => {
    expect(() => parseCommandLine(["fix", "the bug"])).toThrow(UsageError);
    expect(() => parseCommandLine(["-p", "a", "b"])).toThrow(/the prompt goes after -p/);
    expect(() => parseCommandLine(["-i", "a", "b"])).toThrow(/the prompt goes after -i/);
    expect(() => parseCommandLine(["-p", "a", "-i", "b"])).toThrow(/not both/);
    expect(() => parseCommandLine(["--acp", "hello"])).toThrow(/drop a prompt/);
  });

  it("picks the face: -p headless, -i the TUI, a bare prompt the TUI only with a terminal both ways", () => {
    expect(runsHeadless({ prompt: "x" }, terminal)).toBe(true);
    expect(runsHeadless({ promptFromStdin: true }, terminal)).toBe(true);
    expect(runsHeadless({ firstPrompt: { text: "x", interactive: true } }, piped)).toBe(false);
    expect(runsHeadless({ firstPrompt: { text: "x", interactive: false } }, terminal)).toBe(false);
    expect(runsHeadless({ firstPrompt: { text: "x", interactive: false } }, piped)).toBe(true);
    expect(runsHeadless({ firstPrompt: { text: "x", interactive: false } }, redirected)).toBe(true);
    expect(runsHeadless({}, terminal)).toBe(false);
    expect(runsHeadless({}, piped)).toBe(true);
  });
});
