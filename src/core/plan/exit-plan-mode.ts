/**
 * `exit_plan_mode`: the model's "the plan is ready" in plan mode. It shows the plan to a person through the
 * interaction broker and acts on the answer: accepting switches the session's mode (the model is told to
 * start implementing now), `exit_only` leaves plan mode without running the plan, and feedback keeps plan
 * mode with the person's words as the result. The tool is the engine's: the session gives it a small host
 * (where the plan is, how to switch modes, what to do when nobody can answer).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { AgentMode } from "../../protocol/events/index.js";
import { planActionSchema, type PlanAction, type PlanApprovalReply } from "../../protocol/interactions.js";
import { defineTool, type ToolOutcome } from "../../tools/define-tool.js";
import { lazyParameters } from "../../tools/lazy-parameters.js";
import { fleetPrompt } from "../fleet/fleet-prompt.js";

export interface PlanModeHost {
  /** The plan file's path (plan.md in the session folder). */
  planFile(): string;
  /** Switches the session's mode (a `set_mode` command: session.mode_changed is emitted). */
  setMode(mode: AgentMode): void;
  /**
   * With nobody to review the plan: the action taken on it (`--plan --autopilot` accepts into autopilot), or
   * undefined: the plan stays written and the run ends.
   */
  unattendedAction(): "autopilot" | undefined;
  /** The plan runs as a fleet (Autopilot + /fleet): the session says "Fleet deployed". */
  fleetDeployed?(task: string): void;
}

/** The choices the review offers, in the order a face lists them when nothing is recommended. */
export const PLAN_ACTIONS: readonly PlanAction[] = ["autopilot", "interactive", "exit_only"];
/** With `showFleet`: running the plan as a fleet is offered after plain autopilot. */
export const PLAN_ACTIONS_WITH_FLEET: readonly PlanAction[] = ["autopilot", "autopilot_fleet", "interactive", "exit_only"];

/** The plan's text, or a note saying it is missing (the model is then told so by the review's answer). */
export function readPlan(file: string): { content: string; exists: boolean } {
  try {
    return { content: readFileSync(file, "utf8"), exists: true };
  } catch {
    return { content: `(No plan was written: ${file} does not exist.)`, exists: false };
  }
}

function accepted(action: "interactive" | "autopilot", file: string): string {
  const how =
    action === "autopilot"
      ? "You are now in autopilot mode: work autonomously until the plan is fully implemented and verified, then call task_complete."
      : "You are now in interactive mode with manual approval: the user approves each change as you make it.";
  return `Plan approved! Exited plan mode. ${how}\nStart implementing the plan (${file}) now, in this response. Do not call task_complete before the work is done.`;
}

/** The tool result for the person's (or the unattended) answer; switches the mode when the plan is accepted. */
export function actOnReview(reply: PlanApprovalReply, host: PlanModeHost): string {
  const file = host.planFile();
  if (!reply.approved) {
    const feedback = reply.feedback?.trim();
    return feedback
      ? `The user reviewed the plan and wants changes:\n${feedback}\n\nYou are still in plan mode. Revise ${file} accordingly, then call exit_plan_mode again.`
      : `The user did not approve the plan. You are still in plan mode: ask the user (ask_user) what should change, revise ${file}, then call exit_plan_mode again.`;
  }
  const action = reply.selectedAction ?? "interactive";
  if (action === "exit_only") {
    host.setMode("interactive");
    return `Exited plan mode. The user chose not to run the plan now: do not implement it. The plan stays in ${file}; wait for the user's next request.`;
  }
  const mode = action === "interactive" ? "interactive" : "autopilot";
  host.setMode(mode);
  if (action === "autopilot_fleet") {
    const task = `Implement the plan in ${file}`;
    host.fleetDeployed?.(task);
    return `Plan approved! Exited plan mode. You are now in autopilot, running the plan as a fleet. Start now, in this response.\n\n${fleetPrompt(task, { autopilot: true })}`;
  }
  return accepted(mode, file);
}

function noPlanYet(file: string): string {
  return `There is no plan to review: ${file} does not exist. Write the plan to that file (create), then call exit_plan_mode again.`;
}

export function createExitPlanModeTool(host: PlanModeHost) {
  return defineTool({
    name: "exit_plan_mode",
    description: [
      "Present the finished plan to the user for review and leave plan mode.",
      `Call it when ${host.planFile()} holds the complete plan. The user may accept it (then you implement it at once), ask for changes (you get their feedback and stay in plan mode), or exit plan mode without running it.`,
      "End every planning turn with this tool or ask_user, never with a plain question.",
    ].join("\n"),
    parameters: lazyParameters(() =>
      z.object({
        summary: z.string().describe("A short markdown summary of the plan (a few bullets), shown to the user in the review."),
        recommendedAction: planActionSchema
          .optional()
          .describe(
            "The choice you recommend: autopilot (implement autonomously), autopilot_fleet (autonomously, its todos in parallel by background agents; needs showFleet), interactive (implement with the user approving changes), or exit_only.",
          ),
        showFleet: z.boolean().optional().describe("Also offer running the plan as a fleet: set it when the plan has several independent parts."),
      }),
    ),
    kind: "control",
    readOnly: false,
    title: () => "Plan ready for review",
    permission: () => null,
    async execute({ summary, recommendedAction, showFleet }, ctx): Promise<ToolOutcome> {
      const file = host.planFile();
      const plan = readPlan(file);
      const actions = showFleet ? PLAN_ACTIONS_WITH_FLEET : PLAN_ACTIONS;
      const recommended = recommendedAction && actions.includes(recommendedAction) ? recommendedAction : "autopilot";
      const answer = await ctx.ask("exit_plan_mode", { summary, planContent: plan.content, actions: [...actions], recommendedAction: recommended });
      if (answer.source === "aborted") return { content: "The user interrupted the review. You are still in plan mode.", success: false };
      if (answer.source === "headless") {
        // Nothing to accept or to report: the run must not end saying a plan was written.
        if (!plan.exists) return { content: noPlanYet(file), success: false };
        const action = host.unattendedAction();
        if (action) return { content: actOnReview({ approved: true, selectedAction: action }, host) };
        // Nobody is here to accept it: the plan is the run's result, and nothing else happens.
        return {
          content: `No one is available to review the plan. It is saved in ${file}. Stop here: do not implement it.`,
          finish: { summary: `Plan written to ${file}` },
        };
      }
      return { content: actOnReview(answer.reply, host) };
    },
  });
}
