/**
 * /review through the core's router against the scripted server: git gathers the changes before any model
 * call (none when there is nothing to review), the prompt reaches the model, and the model delegates to the
 * real code-review agent through `task`.
 */
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { gatherReviewChanges } from "../../src/core/orchestrate/review-changes.js";
import { startHarness, tempDir, type Harness } from "../support/engine-harness.js";
import { BASE_FILES, git, initRepo, makeChanges, writeFiles } from "../support/git-repo.js";
import { text, toolCall } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const userText = (h: Harness, index: number) =>
  String(h.server.completionRequests[index]?.body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "");

async function input(h: Harness, line: string) {
  const result = await h.session.dispatch({ type: "input", text: line });
  if (result.kind === "prompt") await result.run;
  return result;
}

describe("/review", () => {
  it("sends the staged, unstaged and untracked changes to the model, which delegates to code-review", async () => {
    const cwd = tempDir("review-repo-");
    initRepo(cwd, BASE_FILES);
    makeChanges(cwd);
    harness = await startHarness({ cwd });
    harness.server.enqueue(
      toolCall("task", { description: "Review the changes", prompt: "Review the diff in the repo.", agent_type: "code-review", mode: "sync" }),
      text("- `staged.ts:1` [severity: high]: wrong constant.\n  Why: callers expect 1.\n  Fix: restore it."),
      text("**staged.ts:1** (high): the constant changed. Why: callers expect 1. Fix: restore it."),
    );
    const result = await input(harness, "/review look at constants");
    expect(result.kind).toBe("prompt");
    const prompt = userText(harness, 0);
    expect(prompt).toContain("STAGED-CHANGE");
    expect(prompt).toContain("UNSTAGED-CHANGE");
    expect(prompt).toContain("new-file.ts");
    expect(prompt).toContain('agent_type: "code-review"');
    expect(prompt).toContain("look at constants");
    expect(prompt).toMatch(/file:LINE|path\/to\/file:LINE/);
    expect(prompt).toContain("No significant issues found.");
    // `@staged.ts` in the diff is the code's text, not a mention: nothing is attached.
    expect(prompt).toContain("like @staged.ts");
    expect(harness.ofType("user.message")[0]?.data.attachments).toBeUndefined();
    const child = harness.server.completionRequests[1];
    expect(child?.headers["x-initiator"]).toBe("sub-agent");
    expect(String(child?.body.messages[0]?.content)).toContain("You are a code reviewer");
    expect(harness.ofType("subagent.started")[0]?.data).toMatchObject({ agentName: "code-review", executionMode: "sync" });
    expect(harness.ofType("assistant.message").at(-1)?.data.content).toContain("staged.ts:1");
    rmSync(cwd, { recursive: true, force: true });
  });

  it("says there is nothing to review without calling the model (clean tree, not a repository)", async () => {
    const cwd = tempDir("review-clean-");
    initRepo(cwd, BASE_FILES);
    harness = await startHarness({ cwd });
    expect((await input(harness, "/review")).kind).toBe("done");
    expect(harness.ofType("session.info").at(-1)?.data.message).toBe("Nothing to review: the working tree has no staged, unstaged or untracked changes.");
    await harness.close();
    harness = await startHarness();
    await input(harness, "/review");
    expect(harness.ofType("session.info").at(-1)?.data.message).toMatch(/^Nothing to review: .* is not inside a git repository\.$/);
    expect(harness.server.completionRequests).toHaveLength(0);
    rmSync(cwd, { recursive: true, force: true });
  });

  it("lists a few hundred untracked files at most", async () => {
    const cwd = tempDir("review-many-");
    initRepo(cwd, BASE_FILES);
    writeFiles(cwd, Object.fromEntries(Array.from({ length: 205 }, (_, i) => [`gen/file-${String(i).padStart(3, "0")}.txt`, "x\n"])));
    harness = await startHarness({ cwd });
    harness.server.enqueue(text("No significant issues found."));
    await input(harness, "/review");
    const prompt = userText(harness, 0);
    expect(prompt).toContain("- gen/file-199.txt\n- … and 5 more (git ls-files --others --exclude-standard)");
    expect(prompt).not.toContain("gen/file-200.txt");
    expect(prompt).toContain("(no diff: only the untracked files above)");
    rmSync(cwd, { recursive: true, force: true });
  });

  it("reviews a ref range when the first word is one, the rest being instructions", async () => {
    const cwd = tempDir("review-range-");
    initRepo(cwd, BASE_FILES);
    writeFiles(cwd, { "feature.ts": "export const feature = true; // COMMITTED-CHANGE\n" });
    git(cwd, "add", "-A");
    git(cwd, "commit", "-q", "-m", "feature");
    makeChanges(cwd);
    const range = await gatherReviewChanges(cwd, "HEAD~1..HEAD security only");
    expect(range).toMatchObject({ kind: "changes", changes: { scope: "the changes of the range HEAD~1..HEAD", instructions: "security only", untracked: [] } });
    expect(range.kind === "changes" && range.changes.diff).toContain("COMMITTED-CHANGE");
    expect(range.kind === "changes" && range.changes.diff).not.toContain("STAGED-CHANGE");
    const ref = await gatherReviewChanges(cwd, "HEAD~1");
    expect(ref.kind === "changes" && ref.changes.diff).toContain("STAGED-CHANGE");
    expect(await gatherReviewChanges(cwd, "HEAD..HEAD")).toEqual({ kind: "nothing", message: "Nothing to review: HEAD..HEAD has no changes." });
    expect(await gatherReviewChanges(cwd, "nosuch..HEAD")).toMatchObject({
      kind: "nothing",
      level: "warning",
      message: expect.stringContaining("git could not diff nosuch..HEAD"),
    });
    // A word that is not a ref is an instruction: the working tree is reviewed.
    const words = await gatherReviewChanges(cwd, "naming please");
    expect(words).toMatchObject({ kind: "changes", changes: { instructions: "naming please", untracked: ["new-file.ts"] } });
    rmSync(cwd, { recursive: true, force: true });
  });
});
