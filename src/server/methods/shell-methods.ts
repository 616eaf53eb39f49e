/**
 * The user's own shell commands over the SDK, as `!cmd` runs them (the run_shell command: the bash tool
 * without the permission gate, its output given to the model with the next prompt), and a fleet as /fleet
 * starts it. A run is followed by its events: tool.user_requested names it, tool.execution_complete ends
 * it, and the user.message after it carries the exit code. Stopping one is an interrupt, as Esc is.
 */
import { z } from "zod";
import type { SessionView } from "../../core/index.js";
import type { SessionEvent } from "../../protocol/events/index.js";
import type { SHELL_METHODS } from "./command-method-names.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";

const execSchema = z.looseObject({ sessionId: z.string(), command: z.string(), cwd: z.string().optional() });
const killSchema = z.looseObject({ sessionId: z.string(), processId: z.string() });
const userRequestedSchema = z.looseObject({ sessionId: z.string(), requestId: z.string(), command: z.string() });
const cancelSchema = z.looseObject({ sessionId: z.string(), requestId: z.string() });
const fleetSchema = z.looseObject({ sessionId: z.string(), prompt: z.string().optional() });

interface ShellRun {
  session: SessionView;
  /** The bash call's id (tool.user_requested). */
  started: Promise<string>;
  ended: Promise<{ toolCallId: string; success: boolean; output: string; exitCode: number | null; error?: string }>;
  running: boolean;
}

const quoted = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

/** Dispatches `!command` and follows its events to its end. */
function runShell(session: SessionView, command: string): ShellRun {
  let toolCallId: string | undefined;
  let outcome: { success: boolean; output: string; error?: string } | undefined;
  let onStart!: (id: string) => void;
  let onEnd!: ShellRun["ended"] extends Promise<infer R> ? (result: R) => void : never;
  const started = new Promise<string>((resolve) => (onStart = resolve));
  const ended = new Promise<Awaited<ShellRun["ended"]>>((resolve) => (onEnd = resolve));
  const run: ShellRun = { session, started, ended, running: true };
  const off = session.subscribe((event: SessionEvent) => {
    if (event.agentId) return;
    if (event.type === "tool.user_requested" && toolCallId === undefined && (event.data.arguments as { command?: unknown } | undefined)?.command === command) {
      toolCallId = event.data.toolCallId;
      onStart(toolCallId);
    } else if (event.type === "tool.execution_complete" && event.data.toolCallId === toolCallId) {
      run.running = false;
      const content = event.data.result?.content ?? "";
      outcome = { success: event.data.success, output: content, ...(event.data.error ? { error: event.data.error.message } : {}) };
    } else if (event.type === "user.message" && outcome && toolCallId !== undefined) {
      const code = /<exit_code>(-?\d+)<\/exit_code>/.exec(event.data.content)?.[1];
      finish(code === undefined ? null : Number(code));
    }
  });
  const finish = (exitCode: number | null) => {
    off();
    run.running = false;
    const id = toolCallId ?? "";
    onStart(id);
    const { success = false, output = "", error } = outcome ?? {};
    onEnd({ toolCallId: id, success: success && (exitCode === null || exitCode === 0), output, exitCode, ...(error ? { error } : {}) });
  };
  session.dispatch({ type: "run_shell", command }).then(
    () => finish(null),
    (error: unknown) => {
      outcome ??= { success: false, output: "", error: error instanceof Error ? error.message : String(error) };
      finish(null);
    },
  );
  return run;
}

export function shellMethods(owned: Owned): MethodTable<(typeof SHELL_METHODS)[number]> {
  /** The runs still going or recently ended, by the id the client knows them by (processId, requestId). */
  const runs = new Map<string, ShellRun>();
  const stop = (id: string) => {
    const run = runs.get(id);
    if (!run?.running) return false;
    run.session.dispatch({ type: "interrupt" });
    return true;
  };
  return {
    "session.shell.exec": async (link, params) => {
      const { sessionId, command, cwd } = execSchema.parse(params);
      const session = ownedSession(owned, link, sessionId);
      const run = runShell(session, cwd && cwd !== session.state.cwd ? `cd ${quoted(cwd)} && ${command}` : command);
      const processId = await run.started;
      runs.set(processId, run);
      void run.ended.then(() => setTimeout(() => runs.delete(processId), 60_000).unref());
      return { processId };
    },
    "session.shell.kill": (link, params) => {
      const { sessionId, processId } = killSchema.parse(params);
      ownedSession(owned, link, sessionId);
      return { killed: stop(processId) };
    },
    "session.shell.executeUserRequested": async (link, params) => {
      const { sessionId, requestId, command } = userRequestedSchema.parse(params);
      const run = runShell(ownedSession(owned, link, sessionId), command);
      runs.set(requestId, run);
      try {
        return await run.ended;
      } finally {
        runs.delete(requestId);
      }
    },
    "session.shell.cancelUserRequested": (link, params) => {
      const { sessionId, requestId } = cancelSchema.parse(params);
      ownedSession(owned, link, sessionId);
      return { cancelled: stop(requestId) };
    },
    "session.fleet.start": (link, params) => {
      const { sessionId, prompt } = fleetSchema.parse(params);
      const session = ownedSession(owned, link, sessionId);
      void session.dispatch({ type: "input", text: `/fleet${prompt ? ` ${prompt}` : ""}`, from: "application" }).catch(() => undefined);
      return { started: true };
    },
  };
}
