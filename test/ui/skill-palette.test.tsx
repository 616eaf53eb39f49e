/** The `/` palette offers the session's skills with their argument hints (not a `user-invocable: false` one), and follows /skills disable. */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderApp } from "../support/app-harness.js";
import type { TuiHarness } from "../support/render-tui.js";
import { TestSessionHost } from "../support/tui-host.js";

let host: TestSessionHost | undefined;
let tui: TuiHarness | undefined;
afterEach(async () => {
  tui?.unmount();
  await host?.close();
  host = undefined;
  tui = undefined;
});

function writeSkill(home: string, name: string, front = ""): void {
  mkdirSync(path.join(home, "skills", name), { recursive: true });
  writeFileSync(path.join(home, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: The ${name} skill.\n${front}---\nbody\n`);
}

describe("the palette and skills", () => {
  it("lists a skill with its argument hint, leaves out one that is not user-invocable, and drops one /skills disables", async () => {
    host = await TestSessionHost.start();
    writeSkill(host.home, "pdf-report", "argument-hint: <file>\n");
    writeSkill(host.home, "background-only", "user-invocable: false\n");
    tui = await renderApp(host);
    tui.bus.type("/pdf");
    const frame = await tui.waitForFrame((text) => text.includes("/pdf-report <file>"));
    expect(frame).toContain("The pdf-report skill.");
    const erase = (count: number) => {
      for (let index = 0; index < count; index++) tui?.bus.press("backspace");
    };
    erase(3);
    tui.bus.type("back");
    await tui.waitForFrame((text) => text.includes("› /back"));
    expect(tui.frame()).not.toContain("background-only");
    erase(5);
    tui.bus.type("/skills disable pdf-report");
    tui.bus.press("enter");
    await tui.waitForFrame((text) => text.includes("Skill pdf-report disabled"));
    tui.bus.type("/pdf");
    await tui.waitForFrame((text) => text.includes("/pdf") && !text.includes("/pdf-report <file>"));
  });
});
