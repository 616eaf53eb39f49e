/** What starting a fleet says and sends, shared by /fleet (and --fleet) and a plan accepted as a fleet. */
import { promptTemplate } from "../../config/prompt-templates.js";

/** The line every face shows when a fleet starts (the TUI's fleet view opens with it). */
export const fleetDeployedMessage = (task: string): string => `Fleet deployed: ${task}`;

/**
 * The coordinator's instructions (prompts/fleet.md) for `task`. A fleet is not a mode: in autopilot (a plan
 * accepted as a fleet, /fleet typed in autopilot) it ends with task_complete; otherwise with an answer.
 */
export function fleetPrompt(task: string, options: { autopilot: boolean }): string {
  const finish = options.autopilot
    ? "call `task_complete` with a short summary of what each todo produced"
    : "answer with a short summary of what each todo produced (that answer ends the fleet's work)";
  return promptTemplate("fleet", { task, finish });
}
