import type { SlashCommand } from "./types.js";

export const autopilotCommand: SlashCommand = {
  name: "autopilot",
  aliases: ["goal"],
  description: "Work autonomously until the task is done: on, off, or give the objective",
  argsHint: "[on|off|<objective>]",
  run: ({ session, args }) => {
    if (args === "" || args === "on") {
      session.dispatch({ type: "set_mode", mode: "autopilot" });
      return { kind: "message", text: "Autopilot on: the agent works until it calls task_complete." };
    }
    if (args === "off") {
      session.dispatch({ type: "set_mode", mode: "interactive" });
      return { kind: "message", text: "Autopilot off." };
    }
    session.dispatch({ type: "set_mode", mode: "autopilot" });
    session.dispatch({ type: "set_objective", objective: args });
    return { kind: "prompt", prompt: args };
  },
};
