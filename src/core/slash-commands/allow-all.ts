import type { SlashCommand } from "./types.js";

export const allowAllCommand: SlashCommand = {
  name: "allow-all",
  aliases: ["yolo"],
  description: "Approve every tool, path and URL for this session (deny rules and safety checks still apply)",
  argsHint: "[on|off|show]",
  run: ({ session, args }) => {
    const broker = session.permissionBroker;
    if (args === "show") return { kind: "message", text: `Allow all is ${broker.allowAll ? "on" : "off"}.` };
    if (args !== "" && args !== "on" && args !== "off") return { kind: "message", level: "error", text: "Usage: /allow-all [on|off|show]" };
    const on = args === "off" ? false : true;
    broker.setAllowAll(on);
    return { kind: "message", text: on ? "Allow all is on: tool calls run without asking." : "Allow all is off: tool calls ask again." };
  },
};
