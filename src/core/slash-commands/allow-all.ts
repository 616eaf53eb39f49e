import { describePermissionSummary } from "../permission-summary.js";
import type { SlashCommand } from "./types.js";

export const allowAllCommand: SlashCommand = {
  name: "allow-all",
  aliases: ["yolo"],
  description: "Approve every tool, path and URL for this session (deny rules and safety checks still apply)",
  argsHint: "[on|off|show]",
  run: ({ session, args }) => {
    if (args === "show") return { kind: "message", text: describePermissionSummary(session.state.permissions.summary) };
    if (args !== "" && args !== "on" && args !== "off") return { kind: "message", level: "error", text: "Usage: /allow-all [on|off|show]" };
    const on = args === "off" ? false : true;
    session.dispatch({ type: "set_allow_all", on });
    if (on) return { kind: "message", text: "Allow all is on: tool calls run without asking." };
    // Off undoes only the command: what flags, the environment or settings allow stays, and is said.
    const { summary } = session.state.permissions;
    const still = summary.tools.length + summary.paths.length + summary.urls.length + summary.broadRules.length > 0;
    return {
      kind: "message",
      text: still
        ? `Allow all is off. Still in force:\n${describePermissionSummary(summary).split("\n").slice(1).join("\n")}`
        : "Allow all is off: tool calls ask again.",
    };
  },
};
