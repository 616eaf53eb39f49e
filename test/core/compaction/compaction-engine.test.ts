/**
 * Compaction through the real engine against the scripted server: automatic (threshold), after the endpoint
 * refuses a request as too long, /compact, a failure that changes nothing, a subagent's own compaction, and a
 * resume that folds the compacted view. Token counts are driven by the usage the scripted model reports.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDefinition, AgentDirectory } from "../../../src/core/tasks/agent-directory.js";
import { HookSet } from "../../../src/hooks/hook-set.js";
import { startHarness, tempDir, type Harness } from "../../support/engine-harness.js";
import { estimateTokens } from "../../support/scripted-chunks.js";
import {
  contextLengthExceeded,
  hang,
  httpError,
  startScriptedServer,
  text,
  toolCall,
  toolCalls,
  type ChatMessageLike,
  type CompletionRequest,
} from "../../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const LIMIT = 50_000;
const SUMMARY = "<overview>The user asks questions.</overview>\n<next_steps>None</next_steps>\n<checkpoint_title>Questions so far</checkpoint_title>";
/** A response whose reported usage puts the context at `promptTokens`. */
const answer = (content: string, promptTokens: number) => text(content, { usage: { prompt_tokens: promptTokens, completion_tokens: 10 } });
const contents = (request: CompletionRequest | undefined) => (request?.body.messages ?? []).map((message) => String(message.content ?? ""));

/** Two short exchanges (four messages): the least /compact summarises. */
async function twoExchanges(h: Harness) {
  await h.session.send("first question");
  await h.session.send("second question");
}

function start(extra: Parameters<typeof startHarness>[0] = {}) {
  return startHarness({ provider: { maxPromptTokens: LIMIT }, ...extra });
}

describe("automatic compaction", () => {
  it("compacts before a request past 80% of the limit: the summary request has tool_choice none, the next one carries the summary", async () => {
    harness = await start();
    harness.server.enqueue(answer("first answer", 45_000), text(SUMMARY), text("second answer"));
    await harness.session.send("first question");
    const result = await harness.session.send("second question");
    expect(result.finalMessage).toBe("second answer");

    const [, summarising, next] = harness.server.completionRequests;
    expect(summarising?.body.tool_choice).toBe("none");
    expect((summarising?.body.tools ?? []).length).toBeGreaterThan(0);
    expect(contents(summarising).join("\n")).toContain("first question");
    expect(contents(summarising).at(-1)).toContain("<checkpoint_title>");
    expect(contents(next)[1]).toContain("<conversation_summary>");
    expect(contents(next)[1]).toContain("The user asks questions.");
    expect(contents(next).join("\n")).not.toContain("first question");
    expect(contents(next).at(-1)).toContain("second question");

    const [started] = harness.ofType("session.compaction_start");
    expect(started?.data).toMatchObject({ trigger: "threshold", tokenLimit: LIMIT, model: "scripted-model" });
    expect(started?.data.currentTokens).toBeGreaterThan(0.8 * LIMIT);
    const [complete] = harness.ofType("session.compaction_complete");
    expect(complete?.data).toMatchObject({ success: true, trigger: "threshold", messagesRemoved: 2, checkpointNumber: 1, summaryContent: SUMMARY });
    const file = complete?.data.checkpointPath ?? "";
    expect(path.relative(harness.session.dir, file)).toBe(path.join("checkpoints", "001-questions-so-far.md"));
    expect(readFileSync(file, "utf8")).toContain("The user asks questions.");
    expect(readFileSync(path.join(harness.session.dir, "checkpoints", "index.md"), "utf8")).toContain("| 1 | Questions so far | 001-questions-so-far.md |");
    // The log keeps every message.
    const log = readFileSync(harness.store.eventsFileOf(harness.session.id), "utf8");
    expect(log).toContain("first question");
    // Compaction comes before the turn it makes room for.
    const types = harness.types({ persistedOnly: true });
    expect(types.lastIndexOf("session.compaction_complete")).toBeLessThan(types.lastIndexOf("assistant.turn_start"));
  });

  it("is off with compaction.auto false", async () => {
    harness = await start({ settings: { compaction: { auto: false } } });
    harness.server.enqueue(answer("first answer", 45_000), text("second answer"));
    await harness.session.send("first question");
    await harness.session.send("second question");
    expect(harness.ofType("session.compaction_start")).toHaveLength(0);
    expect(harness.server.completionRequests).toHaveLength(2);
  });

  it("follows compaction.threshold", async () => {
    harness = await start({ settings: { compaction: { threshold: 0.95 } } });
    harness.server.enqueue(answer("first answer", 45_000), text("second answer"));
    await harness.session.send("first question");
    await harness.session.send("second question");
    expect(harness.ofType("session.compaction_start")).toHaveLength(0);
  });

  it("compacts once and retries when the endpoint says the context is too long", async () => {
    harness = await start();
    harness.server.enqueue(text("first answer"), contextLengthExceeded(), text(SUMMARY), text("second answer"));
    await harness.session.send("first question");
    const result = await harness.session.send("second question");
    expect(result.outcome).toBe("completed");
    expect(result.finalMessage).toBe("second answer");
    expect(harness.ofType("session.error")).toHaveLength(0);
    expect(harness.ofType("session.compaction_complete")[0]?.data).toMatchObject({ success: true, trigger: "context_limit_retry" });
    expect(harness.server.completionRequests[2]?.body.tool_choice).toBe("none");
    expect(contents(harness.server.completionRequests[3])[1]).toContain("<conversation_summary>");
    expect(harness.ofType("assistant.turn_start")).toHaveLength(2);
  });

  it("retries only once: refused again after the compaction, the error stands", async () => {
    harness = await start();
    harness.server.enqueue(text("first answer"), contextLengthExceeded(), text(SUMMARY), contextLengthExceeded());
    await harness.session.send("first question");
    const result = await harness.session.send("second question");
    expect(result.outcome).toBe("error");
    expect(result.error?.kind).toBe("context_length");
    expect(harness.ofType("session.compaction_start")).toHaveLength(1);
    expect(harness.server.completionRequests).toHaveLength(4);
  });
});

describe("/compact", () => {
  it("compacts with the focus folded into the request, fires preCompact, and says nothing more than its events", async () => {
    const dir = tempDir("compact-hook-");
    const log = path.join(dir, "pre-compact.json");
    harness = await start({
      hooks: new HookSet([{ event: "preCompact", command: `cat > ${log}`, timeoutMs: 10_000, source: { kind: "user", file: "/test/hooks.json" } }], dir),
    });
    harness.server.enqueue(text("first answer"), text("second answer"), text(SUMMARY));
    await twoExchanges(harness);
    const routed = await harness.session.dispatch({ type: "input", text: "/compact keep the test names" });
    // Waited for like a prompt's run (the TUI does not hold the keyboard meanwhile).
    expect(routed.kind).toBe("prompt");
    expect(routed.kind === "prompt" && (await routed.run).outcome).toBe("completed");
    const summarising = harness.server.completionRequests[2];
    expect(contents(summarising).at(-1)).toContain("Give special attention to: keep the test names");
    expect(harness.ofType("session.compaction_complete")[0]?.data).toMatchObject({
      success: true,
      trigger: "manual",
      customInstructions: "keep the test names",
    });
    expect(JSON.parse(readFileSync(log, "utf8"))).toMatchObject({ trigger: "manual", customInstructions: "keep the test names" });
    expect(harness.ofType("session.warning")).toHaveLength(0);
  });

  it("says there is nothing to compact in a new session, without a model call", async () => {
    harness = await start();
    await harness.session.dispatch({ type: "input", text: "/compact" });
    expect(harness.server.completionRequests).toHaveLength(0);
    expect(harness.ofType("session.warning")[0]?.data.message).toContain("nothing to compact");
  });

  it("ends as an interrupted run when interrupted, changing nothing", async () => {
    harness = await start();
    harness.server.enqueue(text("first answer"), text("second answer"), hang());
    await twoExchanges(harness);
    const routed = await harness.session.dispatch({ type: "input", text: "/compact" });
    await harness.server.waitForHang();
    harness.session.interrupt();
    expect(routed.kind === "prompt" && (await routed.run).outcome).toBe("aborted");
    expect(harness.ofType("session.compaction_complete")[0]?.data).toMatchObject({ success: false, error: "The compaction was interrupted." });
    expect(harness.session.busy).toBe(false);
  });

  it("changes nothing when the summary request fails, and says why", async () => {
    harness = await start();
    harness.server.enqueue(text("first answer"), text("second answer"), httpError(400, { message: "no summaries today" }), text("third answer"));
    await twoExchanges(harness);
    const result = await harness.session.dispatch({ type: "compact" });
    expect(result.success).toBe(false);
    const [complete] = harness.ofType("session.compaction_complete");
    expect(complete?.data.success).toBe(false);
    expect(complete?.data.error).toContain("no summaries today");
    expect(existsSync(path.join(harness.session.dir, "checkpoints"))).toBe(false);
    await harness.session.send("third question");
    const next = contents(harness.server.completionRequests[3]);
    expect(next.slice(1)).toEqual([
      expect.stringContaining("first question"),
      "first answer",
      expect.stringContaining("second question"),
      "second answer",
      expect.stringContaining("third question"),
    ]);
  });

  it("summarises everything before it: the next request carries the summary and the new prompt, not the last tool exchange", async () => {
    for (const before of [[], ["an earlier question"]]) {
      harness = await start();
      const h = harness;
      writeFileSync(path.join(h.cwd, "notes.txt"), "NOTES-MARKER-42\n");
      h.server.enqueue(
        ...before.map(() => text("an earlier answer")),
        toolCall("view", { path: path.join(h.cwd, "notes.txt") }),
        text("The notes hold a marker."),
        text(SUMMARY),
        text("next answer"),
      );
      for (const question of before) await h.session.send(question);
      await h.session.send("read the notes");
      const compacted = await h.session.dispatch({ type: "compact" });
      expect(compacted).toMatchObject({ success: true, messagesRemoved: 4 + before.length * 2 });
      await h.session.send("what next?");
      const next = h.server.completionRequests.at(-1);
      const roles = (next?.body.messages ?? []).map((message) => message.role);
      expect(roles).toEqual(["system", "user", "user"]);
      expect(contents(next)[1]).toContain("<conversation_summary>");
      expect(contents(next)[2]).toContain("what next?");
      const sent = JSON.stringify(next?.body.messages);
      for (const verbatim of ["NOTES-MARKER-42", "read the notes", "The notes hold a marker.", "an earlier"]) expect(sent).not.toContain(verbatim);
      await h.close();
      harness = undefined;
    }
  });

  it("with too little to gain says so, makes no model call and changes nothing", async () => {
    // One short exchange: four messages or 2,000 tokens are the least worth a summary.
    harness = await start();
    harness.server.enqueue(text("hi there"), text("still here"));
    await harness.session.send("hello");
    await harness.session.dispatch({ type: "input", text: "/compact" });
    expect(harness.server.completionRequests).toHaveLength(1);
    expect(harness.ofType("session.compaction_start")).toHaveLength(0);
    expect(harness.ofType("session.warning")[0]?.data.message).toMatch(
      /^Nothing was compacted: Too little to gain: only 2 messages \(about \d+ tokens\) so far/,
    );
    await harness.session.send("again");
    expect(contents(harness.server.completionRequests[1]).slice(1)).toEqual([expect.stringContaining("hello"), "hi there", expect.stringContaining("again")]);
  });

  it("twice in a row: the second is a no-op that says nothing was added since the last compaction", async () => {
    harness = await start();
    harness.server.enqueue(text("first answer"), text("second answer"), text(SUMMARY), text("third answer"));
    await twoExchanges(harness);
    expect((await harness.session.dispatch({ type: "compact" })).success).toBe(true);
    const second = await harness.session.dispatch({ type: "compact" });
    expect(second).toEqual({ success: false, error: expect.stringContaining("Too little to gain: nothing was added since the last compaction") });
    expect(harness.server.completionRequests).toHaveLength(3);
    expect(harness.ofType("session.compaction_complete")).toHaveLength(1);
    await harness.session.send("third question");
    expect(contents(harness.server.completionRequests[3]).slice(1)).toEqual([expect.stringContaining(SUMMARY), expect.stringContaining("third question")]);
  });

  it("a single exchange that is long enough is worth compacting", async () => {
    harness = await start();
    harness.server.enqueue(text("x".repeat(9_000)), text(SUMMARY));
    await harness.session.send("write a lot");
    expect(await harness.session.dispatch({ type: "compact" })).toMatchObject({ success: true, messagesRemoved: 2 });
  });
});

describe("resume", () => {
  it("folds the compacted view: the resumed session's request is the live one's", async () => {
    const server = await startScriptedServer();
    const home = tempDir("compact-home-");
    const cwd = tempDir("compact-cwd-");
    const first = await start({ server, home, cwd });
    server.enqueue(answer("first answer", 45_000), text(SUMMARY), text("second answer"));
    await first.session.send("first question");
    await first.session.send("second question");
    const id = first.session.id;
    await first.close();

    harness = await start({ server, home, cwd, resumeId: id });
    server.enqueue(text("third answer"));
    await harness.session.send("third question");
    const resumed = contents(server.completionRequests.at(-1));
    expect(resumed[1]).toContain("<conversation_summary>");
    expect(resumed.join("\n")).not.toContain("first question");
    expect(resumed.slice(2)).toEqual([expect.stringContaining("second question"), "second answer", expect.stringContaining("third question")]);
    const resumedHarness = harness;
    harness.close = async () => {
      resumedHarness.session.shutdown();
      await server.close();
      for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
    };
  });
});

const AGENTS: AgentDefinition[] = [
  {
    source: "builtin",
    userInvocable: false,
    file: "test",
    name: "worker",
    displayName: "Worker",
    description: "Works",
    systemPrompt: "You are a worker.",
    modelInvocable: true,
  },
];
const agents: AgentDirectory = {
  list: () => AGENTS,
  get: (name) => AGENTS.find((agent) => agent.name === name),
  modelInvocable: () => AGENTS,
  userInvocable: () => [],
};

describe("subagents", () => {
  it("compact their own conversation, as themselves", async () => {
    harness = await start({ agents, allowAllTools: true });
    const notes = path.join(harness.cwd, "notes.txt");
    writeFileSync(notes, "alpha\n");
    harness.server.enqueue(
      toolCall("task", { description: "read", prompt: "Read notes.txt.", agent_type: "worker", name: "reader" }, { id: "call_task" }),
      toolCall("view", { path: notes }, { usage: { prompt_tokens: 45_000, completion_tokens: 10 } }),
      text(SUMMARY),
      text("It says alpha."),
      text("Done: alpha."),
    );
    const result = await harness.session.send("what do the notes say?");
    expect(result.finalMessage).toBe("Done: alpha.");
    const [complete] = harness.ofType("session.compaction_complete");
    expect(complete?.agentId).toBeDefined();
    expect(complete?.data.success).toBe(true);
    const childAfter = harness.server.completionRequests[3];
    expect(String(childAfter?.body.messages[0]?.content)).toBe("You are a worker.");
    expect(contents(childAfter)[1]).toContain("<conversation_summary>");
    // The main agent's conversation is untouched.
    expect(contents(harness.server.completionRequests[4]).join("\n")).toContain("what do the notes say?");
  });
});

/** What a real endpoint refuses: a tool result without its call, or a call whose results do not all follow. */
function invalidSequence(messages: readonly ChatMessageLike[]): string | undefined {
  let open: Set<string> | undefined;
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      const id = String(message.tool_call_id);
      if (!open?.delete(id)) return `message ${index}: tool result ${id} without its call`;
      continue;
    }
    if (open && open.size > 0) return `message ${index}: results missing for ${[...open].join(", ")}`;
    const calls = (message.tool_calls ?? []) as { id: string }[];
    open = message.role === "assistant" && calls.length > 0 ? new Set(calls.map((call) => call.id)) : undefined;
  }
  return open && open.size > 0 ? "the last call has no results" : undefined;
}

describe("a long session", () => {
  it("keeps 200 turns' requests (each a tool call, its result, an answer) valid and under the limit, the model seeing the summary", async () => {
    const limit = 12_000;
    const server = await startScriptedServer({
      // A strict endpoint: a request over the limit, or with a broken call/result pairing, is refused, as a real one would.
      responder: (request) => {
        const { messages } = request.body;
        if (estimateTokens(JSON.stringify(messages)) > limit) return contextLengthExceeded();
        const broken = invalidSequence(messages);
        if (broken) return httpError(400, { message: `invalid conversation: ${broken}` });
        if (request.body.tool_choice === "none") return text(`${SUMMARY} (summary #${request.index})`);
        if (messages.at(-1)?.role === "tool") return text(`Answer ${request.index}: ${"words ".repeat(60)}`);
        // Three calls at once, of different sizes, so a cut can fall among one call's results.
        return toolCalls(["large", "medium", "small"].map((name) => ({ name: "view", arguments: { path: path.join(harness?.cwd ?? "", `${name}.txt`) } })));
      },
    });
    harness = await startHarness({ server, provider: { maxPromptTokens: limit } });
    for (const [name, lines] of [
      ["large", 600],
      ["medium", 30],
      ["small", 3],
    ] as const)
      writeFileSync(path.join(harness.cwd, `${name}.txt`), "a line of notes\n".repeat(lines));
    const turns = 200;
    for (let turn = 0; turn < turns; turn++) {
      const result = await harness.session.send(`Question ${turn}: ${"detail ".repeat(40)}`);
      expect(result.outcome, result.error?.message).toBe("completed");
    }
    const sizes = server.completionRequests.map((request) => estimateTokens(JSON.stringify(request.body.messages)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(limit);
    expect(harness.ofType("session.error")).toHaveLength(0);
    const compactions = harness.ofType("session.compaction_complete");
    expect(compactions.length).toBeGreaterThan(3);
    expect(compactions.every((event) => event.data.success && event.data.trigger === "threshold")).toBe(true);
    expect(compactions.every((event) => (event.data.postCompactionTokens ?? limit) < 0.8 * limit)).toBe(true);
    expect(harness.ofType("session.warning")).toHaveLength(0);
    const last = contents(server.completionRequests.at(-1));
    expect(last[1]).toContain("<conversation_summary>");
    expect(last.join("\n")).toContain(`Question ${turns - 1}:`);
    await server.close();
  }, 120_000);
});

describe("the prompt limit", () => {
  it("comes from the endpoint's model listing when none is configured, minus the output it may ask for", async () => {
    const server = await startScriptedServer({ modelFields: { max_model_len: 20_000 } });
    harness = await startHarness({ server, provider: { maxPromptTokensFrom: "default", maxOutputTokens: 4_000 } });
    server.enqueue(text("first answer"));
    await harness.session.send("first question");
    await harness.session.dispatch({ type: "input", text: "/context" });
    expect(harness.ofType("session.info").at(-1)?.data.message).toMatch(/\/16k tokens/);
    expect(server.requests.filter((request) => request.path === "/v1/models")).toHaveLength(1);
    await server.close();
  });

  it("is asked only once the first request has left, so it never holds that request back", async () => {
    const server = await startScriptedServer({ modelFields: { max_model_len: 20_000 } });
    harness = await startHarness({ server, provider: { maxPromptTokensFrom: "default" } });
    server.enqueue(text("first answer"));
    await harness.session.send("first question");
    await harness.session.dispatch({ type: "input", text: "/context" });
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/models"]);
    await server.close();
  });

  it("stays as configured: the listing is not asked", async () => {
    const server = await startScriptedServer({ modelFields: { max_model_len: 20_000 } });
    harness = await startHarness({ server, provider: { maxPromptTokens: 50_000 } });
    server.enqueue(text("first answer"));
    await harness.session.send("first question");
    await harness.session.dispatch({ type: "input", text: "/context" });
    expect(harness.ofType("session.info").at(-1)?.data.message).toMatch(/\/50k tokens/);
    expect(server.requests.filter((request) => request.path === "/v1/models")).toHaveLength(0);
    await server.close();
  });

  it("is learnt before the compaction that follows a context-length refusal", async () => {
    const server = await startScriptedServer({ modelFields: { context_length: 10_000 } });
    harness = await startHarness({ server, provider: { maxPromptTokensFrom: "default" } });
    server.enqueue(text("first answer"), contextLengthExceeded(), text(SUMMARY), text("second answer"));
    await harness.session.send("first question");
    const result = await harness.session.send("second question");
    expect(result.finalMessage).toBe("second answer");
    expect(harness.ofType("session.compaction_start")[0]?.data.tokenLimit).toBe(10_000);
    await server.close();
  });
});

describe("a compaction that does not help", () => {
  it("is not repeated before every request: after two, automatic compaction pauses and says so", async () => {
    harness = await start();
    // The endpoint keeps counting 45k of 50k whatever is sent (a huge system prompt, say).
    harness.server.enqueue(answer("a1", 45_000), text(SUMMARY), answer("a2", 45_000), text(SUMMARY), answer("a3", 45_000), answer("a4", 45_000));
    for (const prompt of ["q1", "q2", "q3", "q4"]) await harness.session.send(prompt);
    expect(harness.ofType("session.compaction_complete")).toHaveLength(2);
    expect(harness.ofType("session.warning").map((event) => event.data.message)).toEqual([expect.stringContaining("Automatic compaction is paused")]);
    expect(harness.server.completionRequests).toHaveLength(6);
  });
});
