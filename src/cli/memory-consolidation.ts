/**
 * After an interactive session: with memory on and at least `consolidateAfterTurns` user turns (default 3),
 * a detached `agent --agent rem-agent -p … --silent --enable-memory --allow-tool memory` consolidates it into
 * the context board. It gets exactly the permission it needs (memory changes) and no other: its only tools are
 * the memory tools, and `--allow-tool memory` approves their changes without `--yolo`. It is tied to the
 * session it consolidates (AGENT_PARENT_SESSION_ID, and `detachedFromSpawningParentSessionId` in its
 * session.start); it starts in its own process group with no terminal, so the exit never waits for it; and a
 * marker in the session's folder (taken with O_EXCL before it starts) keeps it from running twice for one session.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { promptTemplate } from "../config/prompt-templates.js";
import { REM_AGENT, type MemorySettings } from "../memory/memory-settings.js";
import type { SessionEvent } from "../protocol/events/index.js";

export const CONSOLIDATION_MARKER = "memory-consolidation.json";

/** A prompt the person gave (typed, or through a command), not one the engine made (autopilot, notifications, hooks). */
export function isUserTurn(event: SessionEvent): boolean {
  if (event.type !== "user.message" || event.agentId !== undefined) return false;
  const source = event.data.source;
  return source === undefined || source.startsWith("command:");
}

export interface EndedSession {
  id: string;
  dir: string;
  cwd: string;
  model: string;
  userTurns: number;
  memoryEnabled: boolean;
}

export type ConsolidationOutcome = { started: true; pid: number | undefined } | { started: false; reason: string };

export interface ConsolidationLaunch {
  /** The agent's entry script (bin/agent.js); the running one by default. */
  agentBin?: string;
  env?: NodeJS.ProcessEnv;
}

/** The child's command line (after node and the entry script). */
export function consolidationArgs(session: EndedSession): string[] {
  const prompt = promptTemplate("rem-consolidate", { parentSessionId: session.id, cwd: session.cwd });
  return ["--agent", REM_AGENT, "-p", prompt, "--silent", "--enable-memory", "--allow-tool", "memory", "--model", session.model];
}

export function consolidateAfterSession(session: EndedSession, settings: MemorySettings, launch: ConsolidationLaunch = {}): ConsolidationOutcome {
  if (!session.memoryEnabled) return { started: false, reason: "memory is off" };
  if (!settings.consolidate) return { started: false, reason: "settings.json memory.consolidate is false" };
  if (session.userTurns < settings.consolidateAfterTurns)
    return { started: false, reason: `${session.userTurns} user turn(s), fewer than ${settings.consolidateAfterTurns}` };
  const args = consolidationArgs(session);
  try {
    writeFileSync(path.join(session.dir, CONSOLIDATION_MARKER), `${JSON.stringify({ startedAt: new Date().toISOString(), parentPid: process.pid })}\n`, {
      flag: "wx",
      mode: 0o600,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return { started: false, reason: "this session was consolidated already" };
    return { started: false, reason: (error as Error).message };
  }
  const agentBin = launch.agentBin ?? process.argv[1];
  if (!agentBin) return { started: false, reason: "the agent's entry script is unknown" };
  const env = { ...(launch.env ?? process.env), AGENT_PARENT_SESSION_ID: session.id };
  // Nothing of the agent's own start-up (a profiler, a tracker) is passed on: the child is a plain agent.
  const child = spawn(process.execPath, [agentBin, ...args], { cwd: session.cwd, env, detached: true, stdio: "ignore" });
  child.on("error", () => undefined);
  child.unref();
  return { started: true, pid: child.pid };
}
