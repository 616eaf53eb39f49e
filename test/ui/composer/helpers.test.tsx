import stringWidth from "string-width";
import { afterEach, describe, expect, it } from "vitest";
import { matchCommands, paletteQuery } from "../../../src/ui/components/composer/command-palette.js";
import { findMention, rankFiles } from "../../../src/ui/components/composer/file-mentions.js";
import { findOlder, searchBackspace, searchLine, searchOlder, searchType, startSearch } from "../../../src/ui/components/composer/prompt-history-search.js";
import { QueuedPrompts } from "../../../src/ui/components/composer/queued-prompts.js";
import { layoutEditor, wrapRange } from "../../../src/ui/components/composer/text-layout.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { cpuTimer } from "../../support/cpu-time.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";
import { lines, renderComposer, type ComposerHarness } from "./composer-harness.js";

const texts = (text: string, rows: { start: number; end: number }[]) => rows.map((row) => text.slice(row.start, row.end));

describe("text layout", () => {
  it("word-wraps, cuts words longer than a row, and measures CJK and emoji as two columns", () => {
    const text = "hello there general kenobi";
    expect(texts(text, wrapRange(text, 0, text.length, 12))).toEqual(["hello there ", "general ", "kenobi"]);
    const long = "abcdefghijklmnop";
    expect(texts(long, wrapRange(long, 0, long.length, 5))).toEqual(["abcde", "fghij", "klmno", "p"]);
    const wide = "你好世界👍ok";
    const rows = texts(wide, wrapRange(wide, 0, wide.length, 5));
    expect(rows).toEqual(["你好", "世界", "👍ok"]);
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(5);
  });

  it("puts a cursor at a wrap point on the next row", () => {
    const layout = layoutEditor("abcdefgh", 4, 4, 10);
    expect(layout.rows).toEqual([
      { start: 0, end: 4 },
      { start: 4, end: 8 },
    ]);
    expect(layout.cursorRow).toBe(1);
  });

  it("draws only rows near the cursor of a 5 MB one-line prompt, quickly", () => {
    const text = "word ".repeat(1_048_576);
    const cpu = cpuTimer();
    const layout = layoutEditor(text, 2_600_000, 80, 15);
    const end = layoutEditor(text, text.length, 80, 15);
    expect(cpu()).toBeLessThan(500);
    expect(layout.rows).toHaveLength(15);
    const cursorRow = layout.rows[layout.cursorRow] as { start: number; end: number };
    expect(cursorRow.start <= 2_600_000 && 2_600_000 < cursorRow.end).toBe(true);
    expect(layout.hiddenAbove + layout.hiddenBelow + 15).toBeGreaterThan(60_000);
    expect(end.hiddenBelow).toBe(0);
    expect(end.rows[end.cursorRow]?.end).toBe(text.length);
  });
});

describe("history search", () => {
  const entries = ["git status", "npm test", "git commit", "ls"];

  it("finds the newest match, refines, goes older, and fails without losing the match", () => {
    expect(findOlder(entries, "GIT", 3)).toBe(2);
    let search = searchType(entries, startSearch, "git");
    expect(search.match).toBe(2);
    search = searchOlder(entries, search);
    expect(search).toEqual({ query: "git", match: 0, failing: false });
    expect(searchOlder(entries, search)).toEqual({ query: "git", match: 0, failing: true });
    search = searchType(entries, search, "x");
    expect(search).toEqual({ query: "gitx", match: 0, failing: true });
    search = searchBackspace(entries, search);
    expect(search).toEqual({ query: "git", match: 2, failing: false });
    expect(searchLine(entries, search)).toBe("(reverse-i-search)`git': git commit");
  });
});

describe("palette and mention matching", () => {
  it("applies to a / word without spaces only", () => {
    expect(paletteQuery("/mo")).toBe("mo");
    expect(paletteQuery("/model x")).toBeUndefined();
    expect(paletteQuery("hi /mo")).toBeUndefined();
  });

  it("ranks exact, then name prefix, then alias prefix, then substring", () => {
    const commands = [
      { name: "reset", description: "" },
      { name: "sessions", description: "", aliases: ["se"] },
      { name: "set", description: "" },
      { name: "use", description: "", aliases: ["settings"] },
    ];
    expect(matchCommands(commands, "se").map((command) => command.name)).toEqual(["sessions", "set", "use", "reset"]);
  });

  it("finds the @word at the cursor and ranks files by name, path, then fuzzy, shorter first", () => {
    expect(findMention("see @src/ap", 11)).toEqual({ start: 4, end: 11, query: "src/ap" });
    expect(findMention("see @src/ap rest", 8)).toEqual({ start: 4, end: 11, query: "src" });
    expect(findMention("mail me@host", 12)).toBeUndefined();
    expect(findMention("@", 1)).toEqual({ start: 0, end: 1, query: "" });
    const files = ["lib/deep/nested/config.ts", "config.ts", "src/conf/main.ts", "c/o/n/f.ts", "other.ts"];
    expect(rankFiles(files, "CONF")).toEqual(["config.ts", "lib/deep/nested/config.ts", "src/conf/main.ts", "c/o/n/f.ts"]);
  });
});

describe("queued prompts", () => {
  let tui: TuiHarness | undefined;
  afterEach(() => tui?.unmount());

  it("shows the count and each prompt on one truncated line", async () => {
    tui = renderTui(<QueuedPrompts items={["fix the tests", `first line\nsecond line`, "x".repeat(200)]} theme={plainTheme} width={40} />);
    const frame = await tui.waitForFrame((current) => current.includes("Queued (3) · ↑ to edit"));
    const rows = frame.split("\n");
    expect(rows).toHaveLength(4);
    expect(rows[1]).toBe("  ↳ fix the tests");
    expect(rows[2]).toBe("  ↳ first line …");
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(40);
  });

  it("draws nothing when the queue is empty", async () => {
    tui = renderTui(<QueuedPrompts items={[]} theme={plainTheme} width={40} />);
    await tui.flush();
    expect(tui.frame()).toBe("");
  });
});

describe("composer with very large pastes", () => {
  let harness: ComposerHarness | undefined;
  afterEach(() => harness?.tui.unmount());

  it("stays responsive with a 5 MB one-line paste and sends it byte for byte", async () => {
    harness = await renderComposer();
    const big = "0123456789 ".repeat(480_000);
    const cpu = cpuTimer();
    harness.tui.bus.paste(big);
    harness.tui.bus.type("!");
    await harness.tui.waitForFrame(() => harness?.box().some((row) => row.includes("9 !")) ?? false);
    expect(cpu()).toBeLessThan(1500);
    expect(harness.box().length).toBeLessThanOrEqual(17);
    harness.tui.bus.press("enter");
    expect(harness.submissions[0]?.text === `${big}!`).toBe(true);
  });

  it("keeps a 200,000-line paste as one chip", async () => {
    harness = await renderComposer();
    const big = lines(200_000);
    harness.tui.bus.paste(big);
    await harness.tui.waitForFrame(() => harness?.box()[0]?.trimEnd() === "› [Paste #1 – 200000 lines]");
    harness.tui.bus.press("enter");
    expect(harness.submissions[0]?.text === big).toBe(true);
    expect(harness.history.entries).toEqual([]); // too large to keep in the history file
  });
});
