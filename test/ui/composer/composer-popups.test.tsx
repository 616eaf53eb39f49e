import { attachmentsFor } from "../../../src/core/mentions.js";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { slashCommands } from "../../../src/core/slash-commands/registry.js";
import { renderComposer, type ComposerHarness } from "./composer-harness.js";
import { tempDir } from "../../support/temp-dirs.js";

let harness: ComposerHarness | undefined;
afterEach(() => harness?.tui.unmount());

async function setup(...args: Parameters<typeof renderComposer>) {
  harness = await renderComposer(...args);
  return harness;
}

/** The palette lists the registry in its order: the tests follow it rather than a copy of it. */
const nth = (index: number): string => slashCommands.at(index)?.name ?? "";

const hasRow = (h: ComposerHarness, row: string) => h.box().some((line) => line.trimEnd() === row);

describe("composer: the / palette", () => {
  it("filters as you type, shows descriptions, and Enter runs the selected command", async () => {
    const h = await setup();
    h.tui.bus.type("/");
    await h.tui.waitForFrame((frame) => frame.includes(`❯ /${nth(0)}`) && frame.includes(`1/${slashCommands.length}`));
    h.tui.bus.type("mo");
    const frame = await h.tui.waitForFrame((current) => !current.includes(`/${nth(0)}`));
    expect(frame).toMatch(/❯ \/model.*\S/); // selected, with its description
    expect(frame).toContain("Tab complete");
    h.tui.bus.press("enter");
    expect(h.submissions).toEqual([{ text: "/model", attachments: [] }]);
  });

  it("puts an exact name first and matches aliases and substrings", async () => {
    const h = await setup({
      commands: [
        { name: "resume", description: "Resume a session", aliases: ["continue"] },
        { name: "plan", description: "Plan mode" },
        { name: "exit", description: "Leave", aliases: ["quit"] },
      ],
    });
    h.tui.bus.type("/qu");
    await h.tui.waitForFrame((frame) => frame.includes("❯ /exit") && !frame.includes("/plan"));
    h.tui.bus.press("ctrl+u");
    h.tui.bus.type("/an");
    await h.tui.waitForFrame((frame) => frame.includes("❯ /plan") && !frame.includes("/resume"));
  });

  it("moves the selection with ↑/↓ and completes the name with Tab", async () => {
    const h = await setup();
    h.tui.bus.type("/");
    await h.tui.waitForFrame((frame) => frame.includes(`❯ /${nth(0)}`));
    h.tui.bus.press("down");
    await h.tui.waitForFrame((frame) => frame.includes(`❯ /${nth(1)}`));
    h.tui.bus.press("up");
    h.tui.bus.press("up"); // wraps to the last command
    await h.tui.waitForFrame((frame) => frame.includes(`❯ /${nth(-1)}`));
    h.tui.bus.press("ctrl+u");
    h.tui.bus.type("/he");
    await h.tui.waitForFrame((frame) => frame.includes("❯ /help"));
    h.tui.bus.press("tab");
    await h.tui.waitForFrame((frame) => hasRow(h, "› /help") && !frame.includes("❯"));
    h.tui.bus.type("model");
    h.tui.bus.press("enter");
    expect(h.submissions[0]?.text).toBe("/help model");
  });

  it("stays closed over a recalled history entry, so ↑ keeps walking the history", async () => {
    const h = await setup({}, ["older prompt", "/he"]);
    h.tui.bus.press("up");
    await h.tui.waitForFrame(() => hasRow(h, "› /he"));
    expect(h.tui.frame()).not.toContain("❯");
    h.tui.bus.press("up");
    await h.tui.waitForFrame(() => hasRow(h, "› older prompt"));
    h.tui.bus.press("down");
    h.tui.bus.type("l");
    await h.tui.waitForFrame((frame) => frame.includes("❯ /help")); // editing brings it back
  });

  it("Esc closes the palette (consumed); a second Esc goes to the app", async () => {
    const h = await setup();
    h.tui.bus.type("/cl");
    await h.tui.waitForFrame((frame) => frame.includes("❯ /clear"));
    h.tui.bus.press("escape");
    await h.tui.waitForFrame((frame) => !frame.includes("❯"));
    expect(h.passedOn).toHaveLength(0);
    h.tui.bus.press("escape");
    expect(h.passedOn.map((key) => key.name)).toEqual(["escape"]);
    h.tui.bus.press("enter"); // the palette is closed: the text goes as typed
    expect(h.submissions[0]?.text).toBe("/cl");
  });
});

describe("composer: the @ file picker", () => {
  const root = tempDir("composer-at-");
  mkdirSync(path.join(root, "src", "util"), { recursive: true });
  mkdirSync(path.join(root, "docs"));
  writeFileSync(path.join(root, "src", "app.ts"), "export {};\n");
  writeFileSync(path.join(root, "src", "util", "app-helpers.ts"), "export {};\n");
  writeFileSync(path.join(root, "docs", "guide.md"), "# Guide\n");
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const files = ["docs/guide.md", "src/util/app-helpers.ts", "src/app.ts", "README.md"];

  function fakeLister() {
    const queries: string[] = [];
    return {
      queries,
      listFiles: async (query: string) => {
        queries.push(query);
        return files.filter((file) => file.toLowerCase().includes(query.toLowerCase()));
      },
    };
  }

  it("lists matching files (shorter paths first), inserts the picked path, and attaches it on submit", async () => {
    const lister = fakeLister();
    const h = await setup({ listFiles: lister.listFiles, cwd: root });
    h.tui.bus.type("look at @APP");
    const frame = await h.tui.waitForFrame((current) => current.includes("src/util/app-helpers.ts"));
    expect(lister.queries).toContain("APP");
    expect(frame.indexOf("❯ src/app.ts")).toBeGreaterThan(-1);
    expect(frame.indexOf("src/app.ts")).toBeLessThan(frame.indexOf("src/util/app-helpers.ts"));
    expect(frame).not.toContain("guide.md");
    h.tui.bus.press("enter"); // picks, does not send
    await h.tui.waitForFrame(() => hasRow(h, "› look at @src/app.ts"));
    expect(h.submissions).toHaveLength(0);
    h.tui.bus.type("and @docs");
    await h.tui.waitForFrame((current) => current.includes("❯ docs/guide.md"));
    h.tui.bus.type(" @missing.ts");
    await h.tui.waitForFrame(() => lister.queries.includes("missing.ts"));
    await h.tui.waitForFrame((current) => !current.includes("❯"));
    h.tui.bus.press("enter");
    // The composer sends the line as typed; the engine's input router attaches what the mentions name.
    expect(h.submissions).toEqual([{ text: "look at @src/app.ts and @docs @missing.ts", attachments: [] }]);
    expect(attachmentsFor(h.submissions[0]?.text ?? "", root)).toEqual([
      { type: "file", path: "src/app.ts" },
      { type: "directory", path: "docs" },
    ]);
  });

  it("Tab inserts the selected file after ↓, replacing the whole word", async () => {
    const lister = fakeLister();
    const h = await setup({ listFiles: lister.listFiles, cwd: root });
    h.tui.bus.type("@app");
    await h.tui.waitForFrame((frame) => frame.includes("❯ src/app.ts"));
    h.tui.bus.press("down");
    await h.tui.waitForFrame((frame) => frame.includes("❯ src/util/app-helpers.ts"));
    h.tui.bus.press("tab");
    await h.tui.waitForFrame(() => hasRow(h, "› @src/util/app-helpers.ts"));
    h.tui.bus.press("enter");
    expect(attachmentsFor(h.submissions[0]?.text ?? "", root)).toEqual([{ type: "file", path: "src/util/app-helpers.ts" }]);
  });

  it("sends on Enter when the path under the cursor is already complete", async () => {
    const lister = fakeLister();
    const h = await setup({ listFiles: lister.listFiles, cwd: root });
    h.tui.bus.type("@src/app.ts");
    await h.tui.waitForFrame((frame) => frame.includes("❯ src/app.ts"));
    h.tui.bus.press("enter");
    expect(h.submissions).toEqual([{ text: "@src/app.ts", attachments: [] }]);
    expect(attachmentsFor("@src/app.ts", root)).toEqual([{ type: "file", path: "src/app.ts" }]);
  });

  it("does not open for an @ inside a word, and Esc closes it", async () => {
    const lister = fakeLister();
    const h = await setup({ listFiles: lister.listFiles, cwd: root });
    h.tui.bus.type("me@app");
    await h.tui.flush();
    h.tui.bus.type(" @guide");
    await h.tui.waitForFrame((frame) => frame.includes("❯ docs/guide.md"));
    expect(lister.queries).not.toContain("app");
    h.tui.bus.press("escape");
    await h.tui.waitForFrame((frame) => !frame.includes("❯"));
    expect(h.passedOn).toHaveLength(0);
  });
});
