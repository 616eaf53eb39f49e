import { contextReportText } from "../compaction/context-report.js";
import type { SlashCommand } from "./types.js";

/** `/context`: how the model's prompt limit is used now (system prompt, tools, MCP tools, messages, free); no model call. */
export const contextCommand: SlashCommand = {
  name: "context",
  description: "Show how much of the model's context is used, and by what",
  run: async ({ session }) => {
    const report = await session.contextUsage();
    if (!report) return { kind: "message", level: "warning", text: "This session keeps no context count." };
    return { kind: "message", infoType: "context", text: contextReportText(report) };
  },
};
