/**
 * Rewind in the engine, against a real session and the scripted model: the conversation the model sees
 * goes back (live and after a resume) while the log keeps everything, the files go back byte for byte,
 * a rewind can be undone, a file changed by hand since is kept unless asked, an opaque command makes a
 * point incomplete, a compaction after the point is undone too, and a session that changes no file writes
 * no snapshot.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RewindOutcome, RewindPreview } from "../../src/protocol/rewind.js";
import { readEventLog } from "../../src/session/event-log-reader.js";
import { SNAPSHOTS_DIR } from "../../src/session/rewind/snapshot-store.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { hang, startScriptedServer, text, toolCall, type ScriptedResponse, type ScriptedServer } from "../support/scripted-server.js";

let harness: Harness | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await server?.close();
  server = undefined;
});

/** The user and assistant texts of the last request, in order. */
function lastRequestTexts(h: Harness): string[] {
  const messages = (h.server.completionRequests.at(-1)?.body.messages ?? []) as { role: string; content: unknown }[];
  return messages.filter((message) => message.role !== "system").map((message) => `${message.role}: ${String(message.content ?? "")}`);
}

/** Two prompts: the first edits a.txt, the second edits it again and creates b.txt. */
async function twoPrompts(h: Harness): Promise<void> {
  writeFileSync(path.join(h.cwd, "a.txt"), "one\n");
  h.server.enqueue(
    toolCall("edit", { path: "a.txt", old_str: "one", new_str: "two" }),
    text("Made it two."),
    toolCall("edit", { path: "a.txt", old_str: "two", new_str: "three" }),
    toolCall("create", { path: "b.txt", file_text: "bee\n" }),
    text("Made it three, and b."),
  );
  await h.session.send("first: make it two");
  await h.session.send("second: make it three");
}

const points = (h: Harness) => h.session.dispatch({ type: "rewind_points" });
const rewind = (h: Harness, eventId: string, scope: "conversation-and-files" | "conversation" | "files" = "conversation-and-files", overwrite?: "all") =>
  h.session.dispatch({ type: "rewind", eventId, scope, ...(overwrite ? { overwrite } : {}) }) as Promise<Extract<RewindOutcome, { ok: true }>>;

describe("rewind", () => {
  it("lists each prompt with the files it changed, and takes the conversation and files back to before one", async () => {
    harness = await startHarness({ allowAllTools: true });
    await twoPrompts(harness);
    const listed = points(harness);
    expect(listed.map((point) => [point.number, point.kind, point.text])).toEqual([
      [1, "prompt", "first: make it two"],
      [2, "prompt", "second: make it three"],
    ]);
    expect(listed[1]?.changedFiles).toEqual([path.join(harness.cwd, "a.txt"), path.join(harness.cwd, "b.txt")]);
    expect(listed[1]).toMatchObject({ linesAdded: 2, linesRemoved: 1, incomplete: [] });

    const outcome = await rewind(harness, listed[1]?.eventId as string);
    expect(outcome).toMatchObject({ ok: true, prompt: "second: make it three", skippedFiles: [], incomplete: [] });
    expect(outcome.restoredFiles.sort()).toEqual([path.join(harness.cwd, "a.txt"), path.join(harness.cwd, "b.txt")]);
    expect(readFileSync(path.join(harness.cwd, "a.txt"), "utf8")).toBe("two\n");
    expect(existsSync(path.join(harness.cwd, "b.txt"))).toBe(false);

    harness.server.enqueue(text("On from two."));
    await harness.session.send("third");
    const sent = lastRequestTexts(harness).join("\n");
    expect(sent).toContain("first: make it two");
    expect(sent).toContain("Made it two.");
    expect(sent).not.toContain("second: make it three");
    expect(sent).not.toContain("Made it three");
    // The log keeps everything, with the rewind recorded.
    const logged = readEventLog(harness.store.eventsFileOf(harness.session.id)).events;
    expect(logged.some((event) => event.type === "user.message" && event.data.content === "second: make it three")).toBe(true);
    const recorded = logged.find((event) => event.type === "session.snapshot_rewind");
    expect(recorded?.data).toMatchObject({ upToEventId: listed[1]?.eventId, scope: "conversation-and-files", eventsRemoved: outcome.eventsRemoved });
    expect(outcome.eventsRemoved).toBeGreaterThan(5);
  });

  it("sends after a resume exactly what the live session sent after the rewind", async () => {
    server = await startScriptedServer();
    harness = await startHarness({ allowAllTools: true, server });
    await twoPrompts(harness);
    await rewind(harness, points(harness)[1]?.eventId as string);
    server.enqueue(text("Live."), text("Resumed."));
    await harness.session.send("next");
    const live = lastRequestTexts(harness).slice(0, -1);
    const { home, cwd } = harness;
    harness.session.shutdown();
    harness = await startHarness({ allowAllTools: true, server, home, cwd, resumeId: harness.session.id });
    await harness.session.send("after resume");
    expect(
      lastRequestTexts(harness)
        .slice(0, live.length)
        .map((line) => line.replace(/<current_datetime>[^<]*/, "")),
    ).toEqual(live.map((line) => line.replace(/<current_datetime>[^<]*/, "")));
    expect(points(harness).map((point) => point.kind)).toEqual(["prompt", "rewind", "prompt", "prompt"]);
  });

  it("undoes a rewind by going back to it: the conversation and the files return", async () => {
    harness = await startHarness({ allowAllTools: true });
    await twoPrompts(harness);
    await rewind(harness, points(harness)[0]?.eventId as string);
    expect(readFileSync(path.join(harness.cwd, "a.txt"), "utf8")).toBe("one\n");
    const undo = points(harness).at(-1);
    expect(undo?.kind).toBe("rewind");
    const outcome = await rewind(harness, undo?.eventId as string);
    expect(outcome.prompt).toBeUndefined();
    expect(readFileSync(path.join(harness.cwd, "a.txt"), "utf8")).toBe("three\n");
    expect(readFileSync(path.join(harness.cwd, "b.txt"), "utf8")).toBe("bee\n");
    harness.server.enqueue(text("Back."));
    await harness.session.send("again");
    const sent = lastRequestTexts(harness).join("\n");
    expect(sent).toContain("second: make it three");
    expect(sent).toContain("Made it three, and b.");
  });

  it("keeps a file changed by hand since the agent's change unless told to overwrite it, and says so in the preview", async () => {
    harness = await startHarness({ allowAllTools: true });
    await twoPrompts(harness);
    writeFileSync(path.join(harness.cwd, "b.txt"), "my own bee\n");
    const point = points(harness)[1]?.eventId as string;
    const preview = (await harness.session.dispatch({ type: "preview_rewind", eventId: point, scope: "conversation-and-files" })) as RewindPreview;
    expect(preview.files.map((file) => [path.basename(file.path), file.change, file.changedSince])).toEqual([
      ["a.txt", "restore", false],
      ["b.txt", "delete", true],
    ]);
    expect(preview.files[0]).toMatchObject({ linesAdded: 1, linesRemoved: 1 });
    const kept = await rewind(harness, point);
    expect(kept.skippedFiles).toEqual([{ path: path.join(harness.cwd, "b.txt"), reason: "changed-since", message: expect.any(String) }]);
    expect(readFileSync(path.join(harness.cwd, "b.txt"), "utf8")).toBe("my own bee\n");
    expect(readFileSync(path.join(harness.cwd, "a.txt"), "utf8")).toBe("two\n");
    // Asked to, it overwrites (here: removes the file the agent created).
    const again = await rewind(harness, points(harness)[0]?.eventId as string, "conversation-and-files", "all");
    expect(again.restoredFiles).toContain(path.join(harness.cwd, "b.txt"));
    expect(existsSync(path.join(harness.cwd, "b.txt"))).toBe(false);
    expect(readFileSync(path.join(harness.cwd, "a.txt"), "utf8")).toBe("one\n");
  });

  it("goes back in the files only, or in the conversation only", async () => {
    harness = await startHarness({ allowAllTools: true });
    await twoPrompts(harness);
    const second = points(harness)[1]?.eventId as string;
    const files = await rewind(harness, second, "files");
    expect(files.eventsRemoved).toBe(0);
    expect(readFileSync(path.join(harness.cwd, "a.txt"), "utf8")).toBe("two\n");
    harness.server.enqueue(text("Still here."));
    await harness.session.send("do you remember?");
    expect(lastRequestTexts(harness).join("\n")).toContain("second: make it three");

    const conversation = await rewind(harness, second, "conversation");
    expect(conversation.restoredFiles).toEqual([]);
    expect(readFileSync(path.join(harness.cwd, "a.txt"), "utf8")).toBe("two\n");
    harness.server.enqueue(text("Forgotten."));
    await harness.session.send("and now?");
    expect(lastRequestTexts(harness).join("\n")).not.toContain("second: make it three");
  });

  it("marks a point incomplete when a command's writes cannot be known, and names it", async () => {
    harness = await startHarness({ allowAllTools: true });
    harness.server.enqueue(toolCall("bash", { command: `node -e "require('fs').writeFileSync('made.txt', 'x')"`, description: "write" }), text("Wrote it."));
    await harness.session.send("make a file");
    const [point] = points(harness);
    expect(point?.incomplete[0]).toMatch(/runs code whose effect cannot be seen/);
    const outcome = await rewind(harness, point?.eventId as string);
    expect(outcome.incomplete).toEqual(point?.incomplete);
    expect(existsSync(path.join(harness.cwd, "made.txt"))).toBe(true);
  });

  it("undoes a compaction made after the point: the model gets the messages it had summarised", async () => {
    harness = await startHarness({ allowAllTools: true });
    await twoPrompts(harness);
    harness.server.enqueue(text("<overview>Summary of it all</overview>"));
    await harness.session.dispatch({ type: "compact" });
    expect(harness.ofType("session.compaction_complete").at(-1)?.data.success).toBe(true);
    await rewind(harness, points(harness)[1]?.eventId as string, "conversation");
    harness.server.enqueue(text("Fine."));
    await harness.session.send("after");
    const sent = lastRequestTexts(harness).join("\n");
    expect(sent).not.toContain("Summary of it all");
    expect(sent).toContain("first: make it two");
  });

  it("refuses a point that is not one, and a rewind while a turn runs", async () => {
    harness = await startHarness({ allowAllTools: true });
    await twoPrompts(harness);
    const answer = harness.ofType("assistant.message")[0]?.id as string;
    expect(await harness.session.dispatch({ type: "rewind", eventId: answer, scope: "conversation" })).toMatchObject({ ok: false, reason: "not-found" });
    expect(await harness.session.dispatch({ type: "preview_rewind", eventId: "nope", scope: "files" })).toMatch(/not found/);
    harness.server.enqueue({ kind: "stream", text: "slow", chunkDelayMs: 200 });
    const running = harness.session.send("slow one");
    await new Promise<void>((resolve) => harness?.session.subscribe((event) => event.type === "assistant.turn_start" && resolve()));
    expect(await harness.session.dispatch({ type: "rewind", eventId: points(harness)[0]?.eventId as string, scope: "conversation" })).toMatchObject({
      ok: false,
      reason: "busy",
    });
    await running;
  });

  it("waits for a background agent still running, as for a turn", async () => {
    const main: ScriptedResponse[] = [
      toolCall("task", { description: "look", prompt: "Look around.", agent_type: "explore", name: "bg", mode: "background" }),
      text("Started it."),
    ];
    server = await startScriptedServer({ responder: (request) => (request.headers["x-initiator"] === "sub-agent" ? hang() : (main.shift() ?? text("?"))) });
    harness = await startHarness({ allowAllTools: true, server });
    await harness.session.send("start an agent");
    const point = points(harness)[0]?.eventId as string;
    expect(await harness.session.dispatch({ type: "rewind", eventId: point, scope: "conversation" })).toMatchObject({ ok: false, reason: "busy" });
    harness.session.dispatch({ type: "cancel_agent", agentId: "bg-1" });
    expect(await harness.session.dispatch({ type: "rewind", eventId: point, scope: "conversation" })).toMatchObject({ ok: true });
  });

  it("writes no snapshot in a session that changes no file", async () => {
    harness = await startHarness({ allowAllTools: true });
    writeFileSync(path.join(harness.cwd, "a.txt"), "read me\n");
    harness.server.enqueue(toolCall("view", { path: "a.txt" }), toolCall("bash", { command: "ls", description: "list" }), text("Read."));
    await harness.session.send("look");
    expect(existsSync(path.join(harness.session.dir, SNAPSHOTS_DIR))).toBe(false);
    expect(points(harness)[0]?.changedFiles).toEqual([]);
  });
});
