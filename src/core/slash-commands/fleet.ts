import { fleetDeployedMessage, fleetPrompt } from "../fleet/fleet-prompt.js";
import type { SlashCommand } from "./types.js";

/**
 * `/fleet <task>` (and `--fleet`): fleet mode is a prompt, not a mode switch (as in Copilot): it makes the
 * main agent an orchestrator in the mode it is in. The task becomes todos with dependencies in the session's
 * database (the sql tool), and every ready todo goes to a background agent, in parallel, until all are done.
 */
export const fleetCommand: SlashCommand = {
  name: "fleet",
  description: "Split a task into todos and run them in parallel with background agents",
  argsHint: "<task>",
  run: ({ session, args, info }) => {
    if (args === "") return { kind: "message", level: "error", text: "Usage: /fleet <task>: what should the fleet do?" };
    info?.("fleet", fleetDeployedMessage(args));
    return { kind: "prompt", prompt: fleetPrompt(args, { autopilot: session.mode === "autopilot" }), source: "command:fleet" };
  },
};
