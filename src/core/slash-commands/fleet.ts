import { fleetDeployedMessage, fleetPrompt } from "../fleet/fleet-prompt.js";
import type { SlashCommand } from "./types.js";

/**
 * `/fleet <task>` (and `--fleet`): autopilot, plus a prompt that makes the main agent an orchestrator: the
 * task becomes todos with dependencies in the session's database (the sql tool), and every ready todo goes
 * to a background agent, in parallel, until all are done.
 */
export const fleetCommand: SlashCommand = {
  name: "fleet",
  description: "Split a task into todos and run them in parallel with background agents",
  argsHint: "<task>",
  run: ({ session, args, info }) => {
    if (args === "") return { kind: "message", level: "error", text: "Usage: /fleet <task>: what should the fleet do?" };
    session.dispatch({ type: "set_mode", mode: "autopilot" });
    info?.("fleet", fleetDeployedMessage(args));
    return { kind: "prompt", prompt: fleetPrompt(args), source: "command:fleet" };
  },
};
