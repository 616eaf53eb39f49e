/**
 * `/subconscious run`: consolidates this session into memory's context board in the background. As seed 004
 * has it, the main agent is told to call `task` once with the rem-agent in background mode; the rem-agent is
 * hidden from the model otherwise, so the command allows that one start.
 */
import { promptTemplate } from "../../config/prompt-templates.js";
import { REM_AGENT } from "../../memory/memory-settings.js";
import type { SlashCommand } from "./types.js";

export const subconsciousCommand: SlashCommand = {
  name: "subconscious",
  description: "Consolidate what this session learned into the memory board, in the background",
  argsHint: "run",
  run: ({ session, args }) => {
    if (args !== "run")
      return {
        kind: "message",
        level: "error",
        text: "Usage: /subconscious run: the rem-agent consolidates this session into the memory board, in the background.",
      };
    const memory = session.workspace.memory;
    if (!memory?.enabled) return { kind: "message", level: "error", text: "Memory is off in this session: /memory on first (with -p: --enable-memory)." };
    memory.allowAgentOnce(REM_AGENT);
    return { kind: "prompt", prompt: promptTemplate("subconscious"), source: "command:subconscious" };
  },
};
