import { usageReportText } from "../usage/usage-report.js";
import type { SlashCommand } from "./types.js";

/** `/usage`: requests, tokens per model, API and session time, code changes; no model call. */
export const usageCommand: SlashCommand = {
  name: "usage",
  description: "Show requests, tokens, time and code changes of this session",
  run: ({ session }) => ({ kind: "message", infoType: "usage", text: usageReportText(session.state.usage) }),
};
