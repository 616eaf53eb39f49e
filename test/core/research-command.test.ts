/**
 * /research through the core's router against the scripted server: the orchestrator prompt reaches the
 * model, which dispatches two research agents in one response and writes the report into the session's
 * research/ folder without a permission question (a rule of the policy, like plan mode's plan file).
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { decide, type PermissionPolicy } from "../../src/permissions/decide.js";
import { emptyApprovals } from "../../src/permissions/approvals.js";
import type { PermissionFacts } from "../../src/permissions/facts.js";
import { researchSlug } from "../../src/core/slash-commands/research.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { text, toolCall, toolCalls } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const research = (id: string, question: string) => ({
  id,
  name: "task",
  arguments: { description: question, prompt: `${question} Cite file:line.`, agent_type: "research", mode: "sync" },
});

describe("/research", () => {
  it("dispatches research agents in one response and writes the cited report to the session folder without asking", async () => {
    harness = await startHarness({ interactive: true });
    const report = path.join(realpathSync(harness.session.dir), "research", "how-are-hooks-loaded.md");
    harness.server.enqueue(
      toolCalls([research("r1", "Where are hooks read?"), research("r2", "How are hooks run?")]),
      text("Hooks are read in src/hooks/load-hooks.ts:10."),
      text("Hooks run in src/hooks/hook-runner.ts:20."),
      toolCall("create", { path: report, file_text: "# Hooks\n\nRead at src/hooks/load-hooks.ts:10; run at src/hooks/hook-runner.ts:20.\n" }),
      text(`Report: ${report}\nHooks are read then run.`),
    );
    const result = await harness.session.dispatch({ type: "input", text: "/research How are hooks loaded?" });
    expect(result.kind).toBe("prompt");
    if (result.kind === "prompt") await result.run;
    const prompt = String(harness.server.completionRequests[0]?.body.messages.at(-1)?.content);
    expect(prompt).toContain("How are hooks loaded?");
    expect(prompt).toContain(report);
    expect(prompt).toContain('agent_type: "research"');
    const children = harness.server.completionRequests.filter((request) => request.headers["x-initiator"] === "sub-agent");
    expect(children).toHaveLength(2);
    for (const child of children) expect(String(child.body.messages[0]?.content)).toContain("You are a research agent");
    // The research agent's tools include web_fetch.
    const childTools = ((children[0]?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(childTools).toContain("web_fetch");
    expect(harness.ofType("subagent.completed").map((event) => event.data.agentName)).toEqual(["research", "research"]);
    // Both ran at once: the second started before the first finished.
    expect(harness.events.filter((event) => event.type.startsWith("subagent.")).map((event) => event.type)).toEqual([
      "subagent.started",
      "subagent.started",
      "subagent.completed",
      "subagent.completed",
    ]);
    expect(harness.ofType("permission.requested")).toHaveLength(0);
    expect(readFileSync(report, "utf8")).toContain("load-hooks.ts:10");
    expect(harness.ofType("assistant.message").at(-1)?.data.content).toContain(report);
  });

  it("asks for a topic, and numbers a second report on the same topic", async () => {
    harness = await startHarness();
    await harness.session.dispatch({ type: "input", text: "/research" });
    expect(harness.ofType("session.warning").at(-1)?.data.message).toContain("Usage: /research <topic>");
    expect(harness.server.completionRequests).toHaveLength(0);
    expect(researchSlug("How does X work? (v2)")).toBe("how-does-x-work-v2");
    expect(researchSlug("???")).toBe("research");
  });
});

describe("the session's own folder", () => {
  const folder = "/s/session/research";
  const policy: PermissionPolicy = {
    rules: [],
    allowAllTools: false,
    allowAllPaths: false,
    allowAllUrls: false,
    approvals: emptyApprovals(),
    disabledFloorChecks: new Set(),
    ownFolders: [folder],
  };
  const write = (file: string): PermissionFacts => ({
    toolName: "create",
    request: { kind: "write", fileName: file, diff: "", intention: "Create" },
    paths: [{ text: file, access: "write", resolved: file, inside: true }],
    urls: [],
    homeDir: "/home/u",
    roots: ["/s"],
    workspace: "/s",
  });

  it("lets the file tools write inside it, and nowhere else; deny rules still win", () => {
    expect(decide(write(`${folder}/topic.md`), policy)).toEqual({ verdict: "allow", reason: "the session's own folder" });
    expect(decide(write("/s/session/research-other/x.md"), policy).verdict).toBe("ask");
    expect(decide(write("/s/session/plan.md"), policy).verdict).toBe("ask");
    const denied = decide(write(`${folder}/topic.md`), {
      ...policy,
      rules: [{ action: "deny", text: "write", source: "--deny-tool", target: { kind: "write" } }],
    });
    expect(denied.verdict).toBe("deny");
    expect(existsSync(folder)).toBe(false);
  });
});
