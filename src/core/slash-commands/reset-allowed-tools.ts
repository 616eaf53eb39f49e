import type { SlashCommand } from "./types.js";

export const resetAllowedToolsCommand: SlashCommand = {
  name: "reset-allowed-tools",
  description: "Forget the approvals given for this session",
  run: ({ session }) => {
    session.dispatch({ type: "reset_allowed_tools" });
    return { kind: "done" };
  },
};
