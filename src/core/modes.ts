/**
 * A mode is a preset: the extra tools it offers, the rules it adds to the permission decision, the notice
 * the model gets, and what happens when the tool loop ends. The loop asks the preset; it never tests which
 * mode it is in.
 */
import path from "node:path";
import type { ModeRules } from "../permissions/decide.js";
import type { AgentMode } from "../protocol/events/index.js";

/** What a mode's rules and notices are about: the session folder holds its files (plan mode's plan). */
export interface ModeContext {
  sessionDir: string;
}

export type LoopEndAction = { action: "stop" } | { action: "continue"; message: string } | { action: "stop_at_limit"; message: string };

export interface ModePreset {
  readonly mode: AgentMode;
  readonly label: string;
  /** Tools offered only in this mode. */
  readonly extraTools: readonly string[];
  /** The rules this mode adds to the permission decision (the session folder is its files' home). */
  permissionRules?(context: ModeContext): ModeRules;
  /** Works without a person: says so (session.autopilot_stopped) when it has to stop early. */
  readonly announcesStops: boolean;
  /** The system prompt's section about this mode. */
  promptNotice(context: ModeContext): string;
  /** Delivered once, inside the next user message, after switching to this mode mid-session. */
  switchNotice(context: ModeContext): string;
  /** What to do when a response ends the tool loop without task_complete. */
  onLoopEnd(state: { continuations: number; maxContinues: number; objective?: string }): LoopEndAction;
}

/** Copilot CLI's continuation message, verbatim. */
export const AUTOPILOT_CONTINUATION = [
  "You have not yet marked the task as complete using the task_complete tool. If you were planning, stop planning and start implementing. You aren't done until you have fully completed the task.",
  "",
  "IMPORTANT: Do NOT call task_complete if:",
  "- You have open questions or ambiguities - make good decisions and keep working",
  "- You encountered an error - try to resolve it or find an alternative approach",
  "- There are remaining steps - complete them first",
  "",
  "Keep working autonomously until the task is truly finished, then call task_complete.",
].join("\n");

const interactive: ModePreset = {
  mode: "interactive",
  label: "Interactive",
  extraTools: [],
  announcesStops: false,
  promptNotice: () =>
    "You are in interactive mode: the user reads your replies as you work. When a request is ambiguous in a way that matters, ask; otherwise proceed.",
  switchNotice: () => "The session is back in interactive mode. Autopilot is off: answer and stop when the request is handled.",
  onLoopEnd: () => ({ action: "stop" }),
};

const autopilot: ModePreset = {
  mode: "autopilot",
  label: "Autopilot",
  extraTools: ["task_complete"],
  announcesStops: true,
  promptNotice: () =>
    [
      "You are in autopilot mode: work autonomously until the task is fully done, without asking the user.",
      "- Make reasonable decisions and state your assumptions instead of asking.",
      "- Prefer action: implement, then verify with the project's tests, build or linter.",
      "- When, and only when, the task is complete and verified, call task_complete with a short markdown summary of what you did. For a purely conversational request, answer and then call task_complete.",
      "- Do not call task_complete with open questions, unresolved errors or remaining steps; keep working instead.",
    ].join("\n"),
  switchNotice: () => "The session switched to autopilot mode: work autonomously until the task is done, then call task_complete.",
  onLoopEnd: ({ continuations, maxContinues, objective }) =>
    continuations < maxContinues
      ? { action: "continue", message: objective ? `${AUTOPILOT_CONTINUATION}\n\nThe objective: ${objective}` : AUTOPILOT_CONTINUATION }
      : {
          action: "stop_at_limit",
          message: `Autopilot stopped: the model ended ${continuations + 1} times without calling task_complete (limit: --max-autopilot-continues ${maxContinues}).`,
        },
};

/** Where plan mode keeps its plan: the one file it may write. */
export function planFile(sessionDir: string): string {
  return path.join(sessionDir, "plan.md");
}

/**
 * Plan mode is a ruleset: every write is denied except the plan file (written without asking); a shell
 * command runs only when it is known to be read-only, an MCP tool only when its server marks it read-only.
 */
const plan: ModePreset = {
  mode: "plan",
  label: "Plan",
  extraTools: ["exit_plan_mode"],
  announcesStops: false,
  permissionRules: ({ sessionDir }) => ({
    name: "plan mode",
    writableOnly: [planFile(sessionDir)],
    readOnly: true,
    leave:
      "To make changes, leave plan mode first: finish the plan and call exit_plan_mode so the user can accept it (the user can also switch modes with Shift+Tab, or start without --plan / --mode plan).",
  }),
  // The model is given the plan's absolute path: "plan.md in the session folder" left it to guess.
  promptNotice: ({ sessionDir }) =>
    [
      "You are in plan mode: agree on a plan with the user before anything changes.",
      "- Analyse the request and the code: read and search freely, run only commands that inspect. Writes, commands not known to be read-only (interpreters with inline code, builds and tests, git commands that change state) and MCP tools not marked read-only are refused in this mode.",
      "- Where an answer would change the plan, ask the user with ask_user; decide the rest yourself.",
      `- Write the plan to ${planFile(sessionDir)} (the only file you may write; it needs no approval; create it with the create tool, change it with edit) with: the problem, the approach, todos (numbered concrete steps naming the files involved), and notes. No time estimates.`,
      "- Also record the plan's todos in the session's todo list with the sql tool (it writes only the session's own database, so it works in plan mode): one row per todo in `todos` (a short descriptive id, a title, a description with what an agent needs to do it), and the order between them in `todo_deps` (todo_id waits for depends_on). Once the plan is accepted, the todo list and /fleet work from these rows.",
      "- Change nothing else until the plan is approved.",
      "- End every planning turn by calling ask_user (a question) or exit_plan_mode (the plan is ready for review), never with a plain question in text.",
    ].join("\n"),
  switchNotice: ({ sessionDir }) =>
    `The session switched to plan mode: analyse, ask with ask_user where you must, write the plan (problem, approach, todos, notes) to ${planFile(sessionDir)}, record its todos in the todos/todo_deps tables with the sql tool, change nothing else, and end the turn with ask_user or exit_plan_mode.`,
  onLoopEnd: () => ({ action: "stop" }),
};

const presets: Partial<Record<AgentMode, ModePreset>> = { interactive, plan, autopilot };

/** The order Shift+Tab cycles through. */
export const MODE_CYCLE: readonly AgentMode[] = ["interactive", "plan", "autopilot"];

export function modePreset(mode: AgentMode): ModePreset {
  const preset = presets[mode];
  if (!preset) throw new Error(`Mode "${mode}" is not available yet.`);
  return preset;
}

export function availableModes(): AgentMode[] {
  return Object.keys(presets) as AgentMode[];
}
