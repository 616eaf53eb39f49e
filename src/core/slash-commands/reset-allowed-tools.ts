import type { SlashCommand } from "./types.js";

export const resetAllowedToolsCommand: SlashCommand = {
  name: "reset-allowed-tools",
  description: "Forget the approvals given for this session",
  run: ({ session }) => {
    session.permissionBroker.resetAllowedTools();
    return { kind: "message", text: "This session's approvals are forgotten; approvals kept for this directory remain." };
  },
};
