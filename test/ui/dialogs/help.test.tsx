import { afterEach, describe, expect, it } from "vitest";
import { HelpOverlay, type HelpCommand } from "../../../src/ui/components/help-overlay.js";
import { QuickHelp } from "../../../src/ui/components/quick-help.js";
import { Priority } from "../../../src/ui/terminal/input-bus.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

function listenBelow(harness: TuiHarness) {
  const keys: string[] = [];
  const pastes: string[] = [];
  harness.bus.onKey((key) => {
    keys.push(key.name === "char" ? key.char : key.name);
    return true;
  }, Priority.composer);
  harness.bus.onPaste((text) => {
    pastes.push(text);
    return true;
  }, Priority.composer);
  return { keys, pastes };
}

describe("quick help", () => {
  it("lists the keys", async () => {
    tui = renderTui(<QuickHelp theme={plainTheme} width={100} onClose={() => undefined} />);
    const frame = await tui.waitForFrame((text) => text.includes("Quick help"));
    for (const key of ["Enter", "Shift+Enter · Ctrl+J · \\ Enter", "Ctrl+R", "@", "Shift+Tab", "Esc", "Ctrl+C", "Ctrl+D", "Ctrl+T", "Ctrl+O"]) {
      expect(frame).toContain(key);
    }
    expect(frame).toContain("cycle mode");
  });

  it("closes on any key and consumes it", async () => {
    let closed = 0;
    tui = renderTui(<QuickHelp theme={plainTheme} width={100} onClose={() => (closed += 1)} />);
    const below = listenBelow(tui);
    await tui.flush();
    tui.bus.type("x");
    await tui.flush();
    expect(closed).toBe(1);
    expect(below.keys).toEqual([]);
  });

  it("lets a paste through to the composer while closing", async () => {
    let closed = 0;
    tui = renderTui(<QuickHelp theme={plainTheme} width={100} onClose={() => (closed += 1)} />);
    const below = listenBelow(tui);
    await tui.flush();
    tui.bus.paste("pasted text");
    await tui.flush();
    expect(closed).toBe(1);
    expect(below.pastes).toEqual(["pasted text"]);
  });
});

describe("the /help overlay", () => {
  const commands = [
    { name: "model", description: "Choose the model", argsHint: "[name]" },
    { name: "exit", aliases: ["quit"], description: "Leave agent" },
    { name: "clear", description: "Start a new session" },
  ];

  it("lists the keys, the commands with aliases and hints, and the instruction files", async () => {
    tui = renderTui(<HelpOverlay commands={commands} instructionFiles={["/work/proj/AGENTS.md"]} theme={plainTheme} width={100} onClose={() => undefined} />);
    const frame = await tui.waitForFrame((text) => text.includes("Instruction files"));
    expect(frame).toMatch(/\/model \[name\]\s+Choose the model/);
    expect(frame).toMatch(/\/exit\s+Leave agent \(also \/quit\)/);
    expect(frame).toContain("/work/proj/AGENTS.md");
    expect(frame).toContain("Ctrl+R");
    expect(frame.indexOf("/clear")).toBeLessThan(frame.indexOf("/exit"));
  });

  it("wraps long descriptions and paths at a narrow width instead of cutting them", async () => {
    const long: HelpCommand[] = [
      { name: "model", argsHint: "[name]", description: "Choose the model for this session from the endpoint's list, ending with TAILWORD" },
    ];
    const file = "/work/a/very/long/path/to/some/project/directory/with/instructions/AGENTS-TAILFILE.md";
    tui = renderTui(<HelpOverlay commands={long} instructionFiles={[file]} theme={plainTheme} width={40} onClose={() => undefined} />);
    const frame = await tui.waitForFrame((text) => text.includes("Instruction files"));
    expect(frame).toContain("TAILWORD");
    expect(frame).toContain("TAILFILE");
    expect(frame).not.toContain("…");
    expect(Math.max(...frame.split("\n").map((line) => line.length))).toBeLessThanOrEqual(40);
  });

  it("says when no instruction files were loaded, and closes on a key", async () => {
    let closed = 0;
    tui = renderTui(<HelpOverlay commands={commands} instructionFiles={[]} theme={plainTheme} width={80} onClose={() => (closed += 1)} />);
    const below = listenBelow(tui);
    expect(await tui.waitForFrame((text) => text.includes("Instruction files"))).toContain("none loaded");
    tui.bus.press("escape");
    await tui.flush();
    expect(closed).toBe(1);
    expect(below.keys).toEqual([]);
  });
});
