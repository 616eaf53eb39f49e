import { afterEach, describe, expect, it } from "vitest";
import { FolderTrustDialog, type FolderTrustAnswer } from "../../../src/ui/components/folder-trust-dialog.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

function open(answers: FolderTrustAnswer[], commands = ["preToolUse: ./scripts/guard.sh (.github/hooks/guard.json)"]): TuiHarness {
  tui = renderTui(<FolderTrustDialog folder="/work/repo" commands={commands} theme={plainTheme} width={100} onAnswer={(answer) => answers.push(answer)} />);
  return tui;
}

describe("the folder trust dialog", () => {
  it("names the folder and what would run, and offers this time / always / no", async () => {
    const frame = await open([]).waitForFrame((text) => text.includes("Do you trust"));
    expect(frame).toContain("/work/repo");
    expect(frame).toContain("preToolUse: ./scripts/guard.sh (.github/hooks/guard.json)");
    expect(frame).toContain("1. Yes, trust this folder for this session");
    expect(frame).toContain("2. Yes, and remember this folder");
    expect(frame).toContain("3. No, start without the repository's hooks and servers");
  });

  it("answers by arrow and Enter, by number, and Esc is no; only once", async () => {
    const answers: FolderTrustAnswer[] = [];
    const harness = open(answers);
    await harness.flush();
    harness.bus.press("down");
    harness.bus.press("enter");
    harness.bus.press("enter");
    await harness.flush();
    expect(answers).toEqual(["always"]);
    harness.unmount();

    const byNumber: FolderTrustAnswer[] = [];
    const second = open(byNumber);
    await second.flush();
    second.bus.type("1");
    await second.flush();
    expect(byNumber).toEqual(["once"]);
    second.unmount();

    const escaped: FolderTrustAnswer[] = [];
    const third = open(escaped);
    await third.flush();
    third.bus.press("escape");
    await third.flush();
    expect(escaped).toEqual(["no"]);
  });

  it("shows a long list cut with a count", async () => {
    const commands = Array.from({ length: 12 }, (_, index) => `sessionStart: echo ${index}`);
    const frame = await open([], commands).waitForFrame((text) => text.includes("Do you trust"));
    expect(frame).toContain("… and 4 more");
  });
});
