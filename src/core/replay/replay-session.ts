/**
 * `agent replay`: runs a recorded session again without a model. A local endpoint answers every request
 * with the answer the log recorded for it; the person's steps (prompts, `!cmd`, switches, /compact,
 * rewinds) are dispatched again in order; tools run again where the host put the session (a scratch copy of
 * the working tree), except what only a person or the outside world could answer, and every call with
 * --dry. Each request the agent builds is compared with the recorded one (compare-requests.ts); the first
 * difference is the report. Requests are matched to recorded calls by their content, so agents that ran in
 * parallel may ask in another order.
 */
import type { AgentMode } from "../../protocol/events/index.js";
import type { AgentSession } from "../agent-session.js";
import { firstDifference, fromChat, fromWire, normaliser, type Difference } from "./compare-requests.js";
import { RecordedEndpoint } from "./recorded-endpoint.js";
import type { RecordedAnswer, RecordedCall, ReplayScript } from "./replay-script.js";
import type { ToolStandIn } from "./tool-stand-in.js";

/** Tools a person answers: never asked again, their recorded answers stand. */
const PERSON_TOOLS = new Set(["ask_user", "exit_plan_mode"]);
/** Tools only some modes offer: never stood in for by name. */
const MODE_TOOLS = new Set(["exit_plan_mode", "task_complete"]);

export interface ReplaySetup {
  baseUrl: string;
  model: string;
  mode: AgentMode;
  toolStandIn: ToolStandIn;
  /** Tools the recording called that this session would not have (an MCP server's): stand-ins by name. */
  standInTools: readonly string[];
}

/** Where and how the replayed session is opened (the CLI: a temporary store, the scratch directory). */
export interface ReplayHost {
  open(setup: ReplaySetup): Promise<AgentSession>;
  /** The recording's working directory and session folder, and the replay's: paths in requests are mapped back. */
  paths(session: AgentSession): readonly (readonly [string, string])[];
}

export interface Divergence extends Difference {
  /** The request's number in the replay (1 = the first). */
  request: number;
  /** The prompt it answered, by number. */
  promptNumber: number;
  agent: string;
}

export interface ReplayReport {
  requests: number;
  recordedCalls: number;
  divergence?: Divergence;
  /** A divergence that is not in a request: a call never made, a request the recording does not have. */
  problem?: string;
}

export async function replaySession(script: ReplayScript, host: ReplayHost, options: { dry: boolean }): Promise<ReplayReport> {
  const queue = [...script.calls];
  const report: ReplayReport = { requests: 0, recordedCalls: script.calls.length };
  let session: AgentSession | undefined;
  let normalise = (text: string) => text;
  const stop = () => session?.dispatch({ type: "interrupt" });

  const answer = (body: Record<string, unknown>): RecordedAnswer | { error: string } => {
    report.requests++;
    if (report.divergence || report.problem) return { error: "The replay stopped at the first divergence." };
    const compaction = body.tool_choice === "none";
    const heads = headsByAgent(queue).filter((call) => (call.answer.kind === "compaction") === compaction);
    if (heads.length === 0) {
      report.problem = `request ${report.requests} is one the recording does not have (${compaction ? "a compaction" : "a model call"} after its last).`;
      queueMicrotask(stop);
      return { error: report.problem };
    }
    const actual = fromWire(body.messages);
    const call = (compaction ? heads[0] : (heads.find((head) => !differs(head, actual, normalise)) ?? heads[0])) as RecordedCall;
    queue.splice(queue.indexOf(call), 1);
    const difference = compaction ? undefined : differs(call, actual, normalise);
    if (difference) {
      report.divergence = { ...difference, request: report.requests, promptNumber: call.promptNumber, agent: call.agentId ?? "main agent" };
      queueMicrotask(stop);
      return { error: "The replay stopped at the first divergence." };
    }
    return call.answer;
  };

  const endpoint = new RecordedEndpoint(script.model, answer);
  const baseUrl = await endpoint.start();
  const userOutcomes = [...script.userCommandOutcomes];
  const toolStandIn: ToolStandIn = (call) => {
    if (call.toolCallId.startsWith("user_")) {
      const recorded = userOutcomes.shift();
      return options.dry ? recorded : undefined;
    }
    const recorded = script.outcomes.get(call.toolCallId);
    if (!recorded) return undefined;
    const refused = recorded.errorCode?.startsWith("denied") === true || recorded.errorCode === "rejected";
    return options.dry || refused || PERSON_TOOLS.has(call.toolName) || standIns.has(call.toolName) ? recorded : undefined;
  };
  const standIns = new Set<string>();
  const replayPoints: string[] = [];
  try {
    const setup = { baseUrl, model: script.model, mode: script.mode, toolStandIn };
    session = await host.open({ ...setup, standInTools: [] });
    const missing = missingTools(script, session.tools().names);
    if (missing.length > 0) {
      session.dispatch({ type: "shutdown" });
      await session.whenEnded();
      for (const name of missing) standIns.add(name);
      session = await host.open({ ...setup, standInTools: missing });
    }
    const running = session;
    normalise = normaliser(host.paths(running));
    running.subscribe((event) => {
      if (event.agentId === undefined && (event.type === "user.message" || event.type === "session.snapshot_rewind")) replayPoints.push(event.id);
    });
    for (const step of script.steps) {
      if (report.divergence || report.problem) break;
      await runStep(running, step, script, replayPoints);
    }
    if (!report.divergence && !report.problem) await running.dispatch({ type: "settle_background", timeoutMs: 60_000 });
    if (!report.divergence && !report.problem && queue.length > 0) {
      const next = queue[0] as RecordedCall;
      report.problem = `the recording has ${queue.length} more model call${queue.length === 1 ? "" : "s"} than the replay made (the next: ${next.agentId ?? "the main agent"}'s, after prompt ${next.promptNumber}).`;
    }
    return report;
  } finally {
    if (session) {
      session.dispatch({ type: "shutdown" });
      await session.whenEnded();
    }
    await endpoint.close();
  }
}

/** Each agent's next recorded call, in the order of the log. */
function headsByAgent(queue: readonly RecordedCall[]): RecordedCall[] {
  const seen = new Set<string | undefined>();
  return queue.filter((call) => {
    if (seen.has(call.agentId)) return false;
    seen.add(call.agentId);
    return true;
  });
}

function differs(call: RecordedCall, actual: ReturnType<typeof fromWire>, normalise: (text: string) => string): Difference | undefined {
  return firstDifference(fromChat(call.request ?? []), actual, normalise);
}

function missingTools(script: ReplayScript, known: readonly string[]): string[] {
  const names = new Set<string>();
  for (const call of script.calls) if (call.answer.kind === "chat") for (const tool of call.answer.toolCalls) names.add(tool.name);
  return [...names].filter((name) => !known.includes(name) && !MODE_TOOLS.has(name));
}

async function runStep(session: AgentSession, step: ReplayScript["steps"][number], script: ReplayScript, replayPoints: readonly string[]): Promise<void> {
  switch (step.kind) {
    case "prompt":
      await session.dispatch({
        type: "send",
        prompt: step.prompt,
        ...(step.source ? { source: step.source } : {}),
        ...(step.typed !== undefined ? { typed: step.typed } : {}),
        ...(step.attachments ? { attachments: step.attachments } : {}),
      });
      return;
    case "shell":
      return session.dispatch({ type: "run_shell", command: step.command });
    case "mode":
      return session.dispatch({ type: "set_mode", mode: step.mode });
    case "model":
      return session.dispatch({ type: "set_model", model: step.model });
    case "compact":
      await session.dispatch({ type: "compact", ...(step.focus ? { focus: step.focus } : {}) });
      return;
    case "rewind": {
      // The same point of the replay: the one at the same place among the points.
      const eventId = replayPoints[script.points.indexOf(step.upToEventId)];
      if (eventId) await session.dispatch({ type: "rewind", eventId, scope: step.scope, overwrite: "all" });
      return;
    }
  }
}
