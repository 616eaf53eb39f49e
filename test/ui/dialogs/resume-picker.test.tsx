import { afterEach, describe, expect, it } from "vitest";
import type { SessionMetadata } from "../../../src/session/session-metadata.js";
import { orderSessions, relativeTime, ResumePicker } from "../../../src/ui/components/resume-picker.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";

const NOW = Date.parse("2025-06-01T12:00:00Z");
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

function session(id: string, cwd: string, minutesAgo: number, extra: Partial<SessionMetadata> = {}): SessionMetadata {
  return { id, cwd, userNamed: false, createdAt: ago(minutesAgo + 10), updatedAt: ago(minutesAgo), eventCount: 10, ...extra };
}

const SESSIONS = [
  session("aaaa1111-0000", "/work/other", 1, { firstPrompt: "refactor the other project" }),
  session("bbbb2222-0000", "/work/proj", 3, { firstPrompt: "fix the parser bug", eventCount: 42 }),
  session("cccc3333-0000", "/work/proj", 120, { name: "Release notes", userNamed: true, firstPrompt: "write the notes" }),
  session("dddd4444-0000", "/work/third", 30, { firstPrompt: "add a parser for yaml" }),
];

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

function open(sessions: SessionMetadata[] = SESSIONS, cwd = "/work/proj") {
  const selected: string[] = [];
  let cancelled = 0;
  tui = renderTui(
    <ResumePicker
      sessions={sessions}
      cwd={cwd}
      theme={plainTheme}
      width={100}
      now={NOW}
      onSelect={(id) => selected.push(id)}
      onCancel={() => (cancelled += 1)}
    />,
  );
  return { tui, selected, cancelled: () => cancelled };
}

const order = (frame: string, needles: string[]) => needles.map((needle) => frame.indexOf(needle));

describe("the resume picker", () => {
  it("shows this directory's sessions, newest first, with time, events and id prefix", async () => {
    const { tui } = open();
    const frame = await tui.waitForFrame((text) => text.includes("Resume a session"));
    expect(frame).toContain("[This directory]");
    expect(frame).toMatch(/❯ fix the parser bug\s+3 min ago · 42 events · bbbb2222/);
    expect(frame).toMatch(/Release notes\s+2 hours ago · 10 events · cccc3333/);
    expect(frame).not.toContain("refactor the other project");
    const [first, second] = order(frame, ["fix the parser bug", "Release notes"]);
    expect(first).toBeLessThan(second as number);
  });

  it("shows all sessions after Tab, this directory's first, and back again", async () => {
    const { tui } = open();
    await tui.flush();
    tui.bus.press("tab");
    const frame = await tui.waitForFrame((text) => text.includes("[All]"));
    const positions = order(frame, ["fix the parser bug", "Release notes", "refactor the other project", "add a parser for yaml"]);
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(frame).toContain("· /work/other");
    tui.bus.press("tab");
    expect(await tui.waitForFrame((text) => text.includes("[This directory]"))).not.toContain("refactor the other project");
  });

  it("filters by first prompt and selects the right id with Enter", async () => {
    const { tui, selected } = open();
    await tui.flush();
    tui.bus.press("tab");
    tui.bus.type("parser");
    const frame = await tui.waitForFrame((text) => text.includes("Search: parser"));
    expect(frame).toContain("fix the parser bug");
    expect(frame).toContain("add a parser for yaml");
    expect(frame).not.toContain("Release notes");
    tui.bus.press("down");
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual(["dddd4444-0000"]);
  });

  it("filters by name and by id prefix", () => {
    expect(orderSessions(SESSIONS, "/work/proj", "all", "release").map((entry) => entry.id)).toEqual(["cccc3333-0000"]);
    expect(orderSessions(SESSIONS, "/work/proj", "all", "AAAA").map((entry) => entry.id)).toEqual(["aaaa1111-0000"]);
    expect(orderSessions(SESSIONS, "/work/proj", "here", "aaaa")).toEqual([]);
  });

  it("selects with the arrows", async () => {
    const { tui, selected } = open();
    await tui.flush();
    tui.bus.press("down");
    await tui.waitForFrame((text) => text.includes("❯ Release notes"));
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual(["cccc3333-0000"]);
  });

  it("cancels on Esc", async () => {
    const { tui, selected, cancelled } = open();
    await tui.flush();
    tui.bus.press("escape");
    tui.bus.press("enter");
    await tui.flush();
    expect(cancelled()).toBe(1);
    expect(selected).toEqual([]);
  });

  it("says so when there are no sessions, or none match", async () => {
    const empty = open([]);
    expect(await empty.tui.waitForFrame((text) => text.includes("Resume a session"))).toContain("No sessions yet.");
    empty.tui.bus.press("enter");
    await empty.tui.flush();
    expect(empty.selected).toEqual([]);
    empty.tui.unmount();
    const { tui } = open();
    tui.bus.type("zzzz");
    expect(await tui.waitForFrame((text) => text.includes("Search: zzzz"))).toContain('No sessions match "zzzz".');
  });

  it("starts on all sessions when this directory has none", async () => {
    const { tui } = open(SESSIONS, "/somewhere/new");
    const frame = await tui.waitForFrame((text) => text.includes("[All]"));
    expect(frame).toMatch(/❯ refactor the other project/);
  });

  it("says how long ago", () => {
    expect(relativeTime(ago(0.2), NOW)).toBe("just now");
    expect(relativeTime(ago(3), NOW)).toBe("3 min ago");
    expect(relativeTime(ago(60), NOW)).toBe("1 hour ago");
    expect(relativeTime(ago(60 * 30), NOW)).toBe("yesterday");
    expect(relativeTime(ago(60 * 24 * 5), NOW)).toBe("5 days ago");
    expect(relativeTime(ago(60 * 24 * 90), NOW)).toBe("2025-03-03");
  });
});
