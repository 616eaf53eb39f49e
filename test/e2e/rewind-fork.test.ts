/**
 * bin/agent with -p: /rewind lists the points and goes back to one (a file changed by hand since is kept,
 * and said so), --resume <id> --fork <point> continues a copy from an earlier point while the original
 * stays as it was, and --fork without a session to fork is a usage error.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readEventLog } from "../../src/session/event-log-reader.js";
import { SessionStore } from "../../src/session/session-store.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";

const ws = useE2eWorkspace({ prefix: "rewind" });

/** Three prompts, each changing notes.txt; returns the session id. */
async function threeEdits(): Promise<string> {
  writeFileSync(path.join(ws.cwd, "notes.txt"), "v0\n");
  ws.server.enqueue(
    toolCall("edit", { path: "notes.txt", old_str: "v0", new_str: "v1" }),
    text("v1 done"),
    toolCall("edit", { path: "notes.txt", old_str: "v1", new_str: "v2" }),
    text("v2 done"),
    toolCall("create", { path: "extra.txt", file_text: "extra\n" }),
    text("extra done"),
  );
  const first = await runAgent(["-p", "make v1", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
  const id = /agent --resume (\S+)/.exec(first.stderr)?.[1] as string;
  for (const prompt of ["make v2", "add extra"])
    expect((await runAgent(["--resume", id, "-p", prompt, "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
  return id;
}

describe("rewind and fork from the command line", () => {
  it("lists the points, and goes back to one keeping a file changed by hand since", async () => {
    const id = await threeEdits();
    const listed = await runAgent(["--resume", id, "-p", "/rewind"], { env: ws.env(), cwd: ws.cwd });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("1. “make v1” · 1 file (notes.txt) +1 −1");
    expect(listed.stdout).toContain("3. “add extra” · 1 file (extra.txt) +1 −0");

    writeFileSync(path.join(ws.cwd, "extra.txt"), "mine now\n");
    const back = await runAgent(["--resume", id, "-p", "/rewind 2"], { env: ws.env(), cwd: ws.cwd });
    expect(back.code).toBe(0);
    expect(back.stderr).toMatch(
      /↶ Rewound the conversation and files · \d+ events hidden from the model \(kept in the log\) · restored 1 file \(notes\.txt\) · kept 1 file \(extra\.txt\) changed since/,
    );
    expect(readFileSync(path.join(ws.cwd, "notes.txt"), "utf8")).toBe("v1\n");
    expect(readFileSync(path.join(ws.cwd, "extra.txt"), "utf8")).toBe("mine now\n");

    const wrong = await runAgent(["--resume", id, "-p", "/rewind 9"], { env: ws.env(), cwd: ws.cwd });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("There is no point 9 to go back to");
  });

  it("forks from an earlier point with --resume --fork <n>, leaving the original as it was", async () => {
    const id = await threeEdits();
    ws.server.enqueue(text("Going on from v1."));
    const forked = await runAgent(["--resume", id, "--fork", "2", "-p", "what now?"], { env: ws.env(), cwd: ws.cwd });
    expect(forked.code).toBe(0);
    const newId = /Forked session \S+ into (\S+)\./.exec(forked.stderr)?.[1] as string;
    expect(newId).toBeDefined();
    expect(newId).not.toBe(id);
    expect(forked.stdout).toContain("Going on from v1.");
    const sent = JSON.stringify(ws.server.completionRequests.at(-1)?.body.messages);
    expect(sent).toContain("make v1");
    expect(sent).not.toContain("make v2");

    const store = new SessionStore(ws.home);
    const original = readEventLog(store.eventsFileOf(id)).events;
    expect(original.some((event) => event.type === "user.message" && event.data.content === "what now?")).toBe(false);
    const copy = readEventLog(store.eventsFileOf(newId)).events;
    expect(copy[0]).toMatchObject({ type: "session.start", data: { sessionId: newId, forkedFrom: { sessionId: id } } });
    expect(copy[1]?.id).toBe(original[1]?.id);
  });

  it("needs a session to fork", async () => {
    const run = await runAgent(["--fork", "-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--fork needs the session to fork");
    const unknown = await runAgent(["--resume", "no-such-session", "--fork", "-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("No session matches");
  });
});
