import { homedir } from "node:os";
import path from "node:path";
import stringWidth from "string-width";
import { afterEach, describe, expect, it } from "vitest";
import { Footer, footerSegments, formatTokens, formatUsage, type FooterProps } from "../../src/ui/components/footer.js";
import { createTheme, plainTheme } from "../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../support/render-tui.js";

const base: FooterProps = {
  mode: "interactive",
  model: "gpt-5",
  permissionMode: "Manual Approval",
  usage: { currentTokens: 15_000, tokenLimit: 128_000 },
  cwd: path.join(homedir(), "src", "proj"),
  branch: "main",
  backgroundCount: 2,
  theme: plainTheme,
  width: 120,
};

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

async function show(overrides: Partial<FooterProps> = {}): Promise<string> {
  tui = renderTui(<Footer {...base} {...overrides} />);
  await tui.flush();
  return tui.frame();
}

describe("the footer", () => {
  it("shows everything on one line when it fits", async () => {
    expect(await show()).toBe("Interactive · Manual Approval · gpt-5 · 12% (15k/128k) · ~/src/proj (main) · 2 background");
  });

  it("names each mode, and Allow All", async () => {
    expect(await show({ mode: "plan" })).toMatch(/^Plan · Manual Approval · gpt-5/);
    tui?.unmount();
    expect(await show({ mode: "autopilot", permissionMode: "Allow All" })).toMatch(/^Autopilot · Allow All · gpt-5/);
  });

  it("gives Plan and Autopilot their own colours, and Interactive none", () => {
    const theme = createTheme({ FORCE_COLOR: "1" }, true);
    const colour = (mode: FooterProps["mode"]) => footerSegments({ ...base, theme, mode }).left[0]?.color;
    expect(colour("interactive")).toBeUndefined();
    expect(colour("plan")).toBeDefined();
    expect(colour("autopilot")).toBeDefined();
    expect(colour("plan")).not.toBe(colour("autopilot"));
    const permission = (permissionMode: FooterProps["permissionMode"]) => footerSegments({ ...base, theme, permissionMode }).left[1]?.color;
    expect(permission("Allow All")).not.toBe(permission("Manual Approval"));
    // Without colour (NO_COLOR) there is none at all.
    expect(footerSegments({ ...base, mode: "plan" }).left[0]?.color).toBeUndefined();
  });

  it("formats the context use", () => {
    expect(formatUsage({ currentTokens: 15_000, tokenLimit: 128_000 })).toBe("12% (15k/128k)");
    expect(formatUsage({ currentTokens: 121_600, tokenLimit: 128_000 })).toBe("95% (122k/128k)");
    expect(formatUsage({ currentTokens: 1_234, tokenLimit: 0 })).toBe("1.2k tokens");
    expect(formatTokens(850)).toBe("850");
    expect(formatTokens(2_000)).toBe("2k");
    expect(formatTokens(1_500_000)).toBe("1.5M");
  });

  it("leaves out what it does not know", async () => {
    const frame = await show({ usage: undefined, branch: undefined, backgroundCount: 0, cwd: "/opt/work" });
    expect(frame).toBe("Interactive · Manual Approval · gpt-5 · /opt/work");
  });

  it("says how to interrupt while busy", async () => {
    expect(await show({ busy: true })).toContain("esc to interrupt · ~/src/proj (main)");
  });

  it("puts a hint in place of the right-hand part", async () => {
    const frame = await show({ hint: "Press Ctrl+C again to exit" });
    expect(frame).toBe("Interactive · Manual Approval · gpt-5 · 12% (15k/128k) · Press Ctrl+C again to exit");
    expect(frame).not.toContain("~/src/proj");
  });

  it("uses two lines at a narrow width, each within it", async () => {
    const frame = await show({ width: 50, model: "claude-sonnet-4-5-20250929" });
    const lines = frame.split("\n");
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(50);
    expect(lines[0]).toMatch(/^Interactive · Manual Approval · 12% · claude-\S*…$/);
    expect(lines[1]).toBe("~/src/proj (main) · 2 background");
  });

  it("cuts a line that is still too long", async () => {
    const frame = await show({ width: 30 });
    for (const line of frame.split("\n")) expect(stringWidth(line)).toBeLessThanOrEqual(30);
    expect(frame).toContain("…");
  });
});
