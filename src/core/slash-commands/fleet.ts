import { promptTemplate } from "../../config/prompt-templates.js";
import type { SlashCommand } from "./types.js";

/** The line every face shows when a fleet starts (the TUI's fleet view opens with it). */
export const fleetDeployedMessage = (task: string): string => `Fleet deployed: ${task}`;

/**
 * `/fleet <task>` (and `--fleet`): autopilot, plus a prompt that makes the main agent an orchestrator: the
 * task becomes todos with dependencies in the session's database (the sql tool), and every ready todo goes
 * to a background agent, in parallel, until all are done.
 */
export const fleetCommand: SlashCommand = {
  name: "fleet",
  description: "Split a task into todos and run them in parallel with background agents",
  argsHint: "<task>",
  run: ({ session, args }) => {
    if (args === "") return { kind: "message", level: "warning", text: "Usage: /fleet <task>: what should the fleet do?" };
    session.dispatch({ type: "set_mode", mode: "autopilot" });
    return {
      kind: "prompt",
      prompt: promptTemplate("fleet", { task: args }),
      info: { infoType: "fleet", message: fleetDeployedMessage(args) },
      source: "fleet",
    };
  },
};
