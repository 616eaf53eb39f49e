/**
 * The /rewind dialog: the points with the files each changed, the scope, the preview and the confirmation;
 * keys that arrive together (↑ then Enter in one read) act in order; Esc goes back a step; a file changed
 * since is named and overwriting it is a separate choice.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RewindPoint, RewindPreview, RewindScope } from "../../../src/protocol/rewind.js";
import { RewindDialog } from "../../../src/ui/components/rewind-dialog.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";

const point = (number: number, text: string, files: string[], extra: Partial<RewindPoint> = {}): RewindPoint => ({
  eventId: `e${number}`,
  kind: "prompt",
  number,
  text,
  timestamp: "2026-01-01T00:00:00Z",
  isAutopilotContinuation: false,
  changedFiles: files.map((file) => `/work/${file}`),
  linesAdded: files.length,
  linesRemoved: 0,
  incomplete: [],
  ...extra,
});

const POINTS = [
  point(1, "first prompt", ["a.ts"]),
  point(2, "second prompt", ["b.ts", "c.ts"], { incomplete: ["`npm test` may change files it does not name"] }),
];

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

function open(preview: RewindPreview) {
  const rewound: [string, RewindScope, boolean][] = [];
  const asked: [string, RewindScope][] = [];
  let cancelled = 0;
  tui = renderTui(
    <RewindDialog
      points={POINTS}
      cwd="/work"
      theme={plainTheme}
      width={100}
      preview={async (eventId, scope) => {
        asked.push([eventId, scope]);
        return { ...preview, eventId, scope };
      }}
      onRewind={(eventId, scope, overwrite) => rewound.push([eventId, scope, overwrite])}
      onCancel={() => (cancelled += 1)}
    />,
  );
  return { tui, rewound, asked, cancelled: () => cancelled };
}

const PREVIEW: RewindPreview = {
  eventId: "",
  scope: "conversation-and-files",
  eventsRemoved: 12,
  files: [
    { path: "/work/b.ts", change: "delete", changedSince: false, linesAdded: 0, linesRemoved: 3 },
    { path: "/work/c.ts", change: "restore", changedSince: true, linesAdded: 1, linesRemoved: 2 },
  ],
  incomplete: [],
};

describe("the rewind dialog", () => {
  it("lists the points with their files, the last one selected, and says which are incomplete", async () => {
    const { tui } = open(PREVIEW);
    const frame = await tui.waitForFrame((text) => text.includes("Go back to before which point?"));
    expect(frame).toContain("  1. “first prompt” · 1 file (a.ts) +1 −0");
    expect(frame).toMatch(/❯ 2\. “second prompt” · 2 files \(b\.ts, c\.ts\) \+2 −0 · incomplete/);
  });

  it("acts on keys that arrive together in order, and previews what changes, a file changed since named", async () => {
    const { tui, asked, rewound } = open(PREVIEW);
    await tui.flush();
    // No render between the two: the second key must see the first's selection.
    tui.bus.press("up");
    tui.bus.press("enter");
    await tui.waitForFrame((text) => text.includes("What goes back?"));
    expect(tui.frame()).toContain("Back to before: 1. “first prompt”");
    tui.bus.type("1");
    const preview = await tui.waitForFrame((text) => text.includes("Rewind, and keep"));
    expect(asked).toEqual([["e1", "conversation-and-files"]]);
    expect(preview).toContain("Conversation: 12 events after this point are hidden from the model (kept in the log).");
    expect(preview).toMatch(/delete\s+b\.ts \(\+0 −3\)/);
    expect(preview).toMatch(/restore\s+c\.ts \(\+1 −2\)\s+changed since the agent's last change/);
    expect(preview).toContain("1. Rewind, and keep the 1 file changed since as they are");
    expect(preview).toContain("2. Rewind, and overwrite those changes too");
    tui.bus.type("2");
    await tui.flush();
    expect(rewound).toEqual([["e1", "conversation-and-files", true]]);
  });

  it("goes back a step with Esc and cancels from the list", async () => {
    const { tui, rewound, cancelled } = open({ ...PREVIEW, files: [] });
    await tui.flush();
    tui.bus.press("enter");
    await tui.waitForFrame((text) => text.includes("What goes back?"));
    tui.bus.press("down");
    tui.bus.press("enter");
    await tui.waitForFrame((text) => text.includes("Conversation only:"));
    expect(tui.frame()).toContain("1. Rewind");
    tui.bus.press("escape");
    await tui.waitForFrame((text) => text.includes("What goes back?"));
    tui.bus.press("escape");
    await tui.waitForFrame((text) => text.includes("Go back to before which point?"));
    tui.bus.press("escape");
    await tui.flush();
    expect(cancelled()).toBe(1);
    expect(rewound).toEqual([]);
  });
});
