/** AcpSession over a stand-in session: the todo list as the plan (from the event, and the state on replay) and the stop reasons. */
import type { AgentContext, SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { AcpSession, stopReasonOf } from "../../src/acp/acp-session.js";
import type { SessionView } from "../../src/core/session-view.js";
import type { SessionEvent } from "../../src/protocol/events/index.js";

type TodoList = { id: string; title: string; status: string }[];

/** A session as the face sees it: its state (the todo list among it) and its events. */
function standIn(todos: TodoList = []) {
  let listener: (event: SessionEvent) => void = () => undefined;
  const session = {
    id: "s1",
    state: { cwd: "/work", model: "m", todos },
    subscribe: (next: (event: SessionEvent) => void) => {
      listener = next;
      return () => undefined;
    },
  };
  const sent: SessionNotification[] = [];
  const client = { notify: async (_method: string, params: SessionNotification) => void sent.push(params) };
  const acp = new AcpSession({
    client: client as unknown as AgentContext,
    session: session as unknown as SessionView,
    saveImage: () => "/dev/null",
    log: () => undefined,
  });
  const emit = (type: string, data: unknown) => listener({ id: "e", timestamp: "", parentId: null, type, data } as unknown as SessionEvent);
  return { acp, sent, emit };
}

describe("AcpSession", () => {
  it("sends the list each session.todos_changed carries as the plan, in order; the same list twice goes out once", async () => {
    const { acp, sent, emit } = standIn();
    emit("session.todos_changed", { todos: [{ id: "1", title: "Read", status: "pending" }] });
    await acp.flush();
    emit("session.todos_changed", { todos: [{ id: "1", title: "Read", status: "done" }] });
    emit("session.todos_changed", { todos: [{ id: "1", title: "Read", status: "done" }] });
    await acp.flush();
    expect(sent.map((note) => note.update)).toEqual([
      { sessionUpdate: "plan", entries: [{ content: "Read", priority: "medium", status: "pending" }] },
      { sessionUpdate: "plan", entries: [{ content: "Read", priority: "medium", status: "completed" }] },
    ]);
  });

  it("sends nothing for an event without a list; a loaded session's replay sends the state's list (none when empty)", async () => {
    const { acp, sent, emit } = standIn();
    emit("session.todos_changed", {});
    await acp.replay([]);
    expect(sent).toEqual([]);
    const loaded = standIn([{ id: "a", title: "Plan", status: "in_progress" }]);
    await loaded.acp.replay([]);
    expect(loaded.sent.map((note) => note.update)).toEqual([
      { sessionUpdate: "plan", entries: [{ content: "Plan", priority: "medium", status: "in_progress" }] },
    ]);
  });

  it("says nothing on stderr about updates the client missed because it hung up; once about any other failure", async () => {
    const failing = (disconnected: AbortSignal) => {
      const logged: string[] = [];
      let listener: (event: SessionEvent) => void = () => undefined;
      const session = {
        id: "s1",
        state: { cwd: "/work", model: "m", todos: [] },
        subscribe: (next: (event: SessionEvent) => void) => ((listener = next), () => undefined),
      };
      const client = { notify: async () => Promise.reject(new Error("ACP connection closed")) };
      const acp = new AcpSession({
        client: client as unknown as AgentContext,
        session: session as unknown as SessionView,
        saveImage: () => "/dev/null",
        log: (message) => void logged.push(message),
        disconnected,
      });
      const emit = () =>
        listener({
          id: "e",
          timestamp: "",
          parentId: null,
          type: "session.todos_changed",
          data: { todos: [{ id: "1", title: "A", status: "pending" }] },
        } as unknown as SessionEvent);
      return { acp, logged, emit };
    };
    const gone = new AbortController();
    gone.abort();
    const hungUp = failing(gone.signal);
    hungUp.emit();
    await hungUp.acp.flush();
    expect(hungUp.logged).toEqual([]);
    const broken = failing(new AbortController().signal);
    broken.emit();
    broken.emit();
    await broken.acp.flush();
    expect(broken.logged).toEqual(["session/update failed: ACP connection closed"]);
  });

  it("maps how a run ended to ACP's stop reasons", () => {
    const run = (outcome: "completed" | "aborted" | "max_continues" | "task_complete") => ({ outcome, finalMessage: "", continuations: 0 });
    expect(stopReasonOf(run("completed"), "stop")).toBe("end_turn");
    expect(stopReasonOf(run("task_complete"), undefined)).toBe("end_turn");
    expect(stopReasonOf(run("completed"), "content_filter")).toBe("refusal");
    expect(stopReasonOf(run("completed"), "length")).toBe("max_tokens");
    expect(stopReasonOf(run("aborted"), undefined)).toBe("cancelled");
    expect(stopReasonOf(run("max_continues"), undefined)).toBe("max_turn_requests");
    expect(() => stopReasonOf({ outcome: "error", finalMessage: "", continuations: 0, error: { kind: "auth", message: "bad key" } }, undefined)).toThrow(
      /bad key/,
    );
  });
});
