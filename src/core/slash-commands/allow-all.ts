import type { SlashCommand } from "./types.js";

export const allowAllCommand: SlashCommand = {
  name: "allow-all",
  aliases: ["yolo"],
  description: "Approve every tool, path and URL for this session (deny rules and safety checks still apply)",
  argsHint: "[on|off|show]",
  run: ({ session, args }) => {
    if (args === "show") return { kind: "message", text: `Allow all is ${session.allowAll ? "on" : "off"}.` };
    if (args !== "" && args !== "on" && args !== "off") return { kind: "message", level: "error", text: "Usage: /allow-all [on|off|show]" };
    const on = args === "off" ? false : true;
    session.dispatch({ type: "set_allow_all", on });
    return { kind: "message", text: on ? "Allow all is on: tool calls run without asking." : "Allow all is off: tool calls ask again." };
  },
};
