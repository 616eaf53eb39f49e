/**
 * A prompt that needs a permission, in the whole TUI over the real engine: the dialog shows the answers the
 * engine offers (permission.requested's `options`, labels naming what an approval stores), and "yes for this
 * session" to one agent's question releases the other agent's waiting question for the same command.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEventOf } from "../../src/protocol/events/index.js";
import { useAppHarness } from "../support/app-harness.js";
import { twinTouchAgents } from "../support/twin-agents.js";

const { start } = useAppHarness();

describe("a prompt that needs a permission, in the TUI", () => {
  it("shows the engine's answers, and yes for this session answers the other agent's waiting question too", async () => {
    let files: string[] = [];
    const { host, tui } = await start({ server: { responder: (request) => twinTouchAgents(files)(request) } });
    files = ["a.txt", "b.txt"].map((name) => path.join(host.cwd, name));
    const asked: SessionEventOf<"permission.requested">[] = [];
    host.session.subscribe((event) => void (event.type === "permission.requested" && asked.push(event)));
    tui.bus.type("make both files");
    tui.bus.press("enter");
    // Both agents ask; one dialog shows, the other waits behind it.
    const frame = await tui.waitForFrame((current) => current.includes("1 more waiting"));
    expect(asked).toHaveLength(2);
    const labels = (asked[0]?.data.options ?? []).map((option) => option.label);
    expect(labels).toEqual(["Yes", "Yes, and don't ask again this session for `touch`", "Yes, and always allow `touch` in this directory", "No"]);
    expect(frame).toContain("2. Yes, and don't ask again this session for `touch`");
    expect(frame).toContain("4. No, and tell agent what to do differently (Esc to stop)");
    tui.bus.type("2");
    await tui.waitForFrame((current) => current.includes("Both made."));
    expect(tui.frame()).not.toContain("Do you want to run this command?");
    expect(files.filter((file) => existsSync(file))).toEqual(files);
  });
});
