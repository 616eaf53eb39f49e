/** What starting a fleet says and sends, shared by /fleet (and --fleet) and a plan accepted as a fleet. */
import { promptTemplate } from "../../config/prompt-templates.js";

/** The line every face shows when a fleet starts (the TUI's fleet view opens with it). */
export const fleetDeployedMessage = (task: string): string => `Fleet deployed: ${task}`;

/** The coordinator's instructions (prompts/fleet.md) for `task`. */
export function fleetPrompt(task: string): string {
  return promptTemplate("fleet", { task });
}
