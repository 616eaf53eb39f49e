/** `@file` in a `-p` prompt through the real bin/agent: the model gets the file's contents (bounded), not only its path and length. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";

const ws = useE2eWorkspace({ prefix: "file-mention", removeDirs: true });

const sentPrompt = (): string => String(ws.server.completionRequests[0]?.body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "");

describe("@file in a prompt", () => {
  it("sends a small file's contents after the tagged files list", async () => {
    writeFileSync(path.join(ws.cwd, "notes.txt"), "the build uses esbuild\nthe tests use vitest\n");
    ws.server.enqueue(text("esbuild and vitest."));
    const run = await runAgent(["-s", "-p", "what tools does @notes.txt name?"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    const file = path.join(ws.cwd, "notes.txt");
    expect(sentPrompt()).toContain(
      `<tagged_files>\n* ${file} (2 lines)\n</tagged_files>\n\n<file_contents path="${file}">\nthe build uses esbuild\nthe tests use vitest\n</file_contents>`,
    );
  });

  it("sends the head of a large file and says how to read the rest", async () => {
    writeFileSync(path.join(ws.cwd, "big.log"), Array.from({ length: 5000 }, (_, i) => `event ${i + 1}`).join("\n") + "\n");
    ws.server.enqueue(text("Seen."));
    await runAgent(["-s", "-p", "summarise @big.log"], { env: ws.env(), cwd: ws.cwd });
    const sent = sentPrompt();
    expect(sent).toContain("event 1\n");
    expect(sent).not.toContain("event 5000");
    expect(sent).toMatch(/Only lines 1-\d+ of .*big\.log \(5000 lines\) are above: read the rest with the view tool/);
  });
});
