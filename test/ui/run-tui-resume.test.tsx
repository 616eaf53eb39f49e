/**
 * The runner shows a resumed session's last exchange from the log's tail before the engine has opened the
 * session (a long log takes a while to read), then prints the whole past once it has.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { MemoryPromptHistory } from "../../src/session/prompt-history.js";
import type { SessionHost } from "../../src/ui/session-host.js";
import { plainTheme } from "../../src/ui/theme.js";
import { FakeTerminal } from "../support/fake-terminal.js";

// As the real command loads the TUI (cli/interactive.ts): Ink must not take this run for CI and hold its frames.
process.env.CI = "0";
const { runTui } = await import("../../src/ui/run-tui.js");

let counter = 0;
const event = (type: string, data: Record<string, unknown>): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data }) as unknown as SessionEvent;

function exchange(n: number): SessionEvent[] {
  return [
    event("user.message", { content: `question ${n}` }),
    event("assistant.turn_start", { turnId: String(n) }),
    event("assistant.message", { messageId: `m${n}`, content: `Answer number ${n}.` }),
    event("assistant.turn_end", { turnId: String(n) }),
  ];
}

describe("resuming a session in the TUI", () => {
  it("shows the last exchange from the log's tail before the session has opened", async () => {
    const past = [1, 2, 3].flatMap(exchange);
    let fail: (error: Error) => void = () => undefined;
    const opening = new Promise<void>((_resolve, reject) => (fail = reject));
    const ready = false;
    const host = {
      get ready() {
        return ready;
      },
      get session(): never {
        throw new Error("not open");
      },
      history: past,
      instructionFiles: [],
      cwd: "/work",
      startNew: async () => undefined,
      switchTo: async () => undefined,
      listSessions: async () => [],
      onSwitch: () => () => undefined,
      listFiles: async () => [],
    } satisfies SessionHost & { listFiles(query: string): Promise<string[]> };
    const stdout = new FakeTerminal(80, 24);
    const stdin = Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.ReadStream;
    const run = runTui({
      host,
      openSession: () => opening,
      resumeTail: async () => past.slice(-4),
      initial: { mode: "interactive", model: "m" },
      theme: plainTheme,
      history: new MemoryPromptHistory(),
      version: "test",
      stdin,
      stdout: stdout as unknown as NodeJS.WriteStream,
    });
    await stdout.waitFor("Answer number 3.");
    expect(stdout.text).toContain("question 3");
    expect(stdout.text).not.toContain("Answer number 2.");
    // The session never opens in this test: the run ends with its error.
    fail(new Error("not opened in this test"));
    expect((await run).error?.message).toBe("not opened in this test");
  });
});
