/**
 * `/instructions [on|off <n|path>]`: which custom instruction files the model gets (AGENTS.md,
 * .github/copilot-instructions.md…), and leaving one out for the rest of the session.
 */
import type { AgentSession } from "../agent-session.js";
import type { SlashCommand, SlashCommandResult } from "./types.js";

function listing(session: AgentSession): string {
  const files = session.workspace.instructionFiles;
  if (files.length === 0)
    return "No custom instruction files are loaded. The agent reads AGENTS.md, CLAUDE.md, GEMINI.md, .github/copilot-instructions.md and .github/instructions/*.instructions.md (in the directory and its git root) and copilot-instructions.md in the agent's home; /init writes one.";
  return [
    "Instruction files:",
    ...files.map((file, index) => `  ${index + 1}. [${file.enabled ? "on" : "off"}] ${file.path}`),
    "/instructions off <n> leaves one out for this session; /instructions on <n> takes it back.",
  ].join("\n");
}

export const instructionsCommand: SlashCommand = {
  name: "instructions",
  description: "List the custom instruction files in use; switch one off or on",
  argsHint: "[on|off|toggle <n|path>]",
  run: ({ session, args }): SlashCommandResult => {
    const [verb = "", ...rest] = args.split(/\s+/).filter((part) => part !== "");
    if (verb === "" || verb === "list") return { kind: "message", text: listing(session) };
    const which = rest.join(" ");
    const files = session.workspace.instructionFiles;
    const index = Number(which);
    const file = Number.isInteger(index) && index >= 1 ? files[index - 1] : files.find((candidate) => candidate.path === session.workspace.resolvePath(which));
    if (!["on", "off", "toggle"].includes(verb) || !file)
      return { kind: "message", level: "error", text: `Usage: /instructions [on|off|toggle <n|path>]\n${listing(session)}` };
    const enabled = verb === "toggle" ? !file.enabled : verb === "on";
    const refused = session.dispatch({ type: "set_instruction", path: file.path, enabled });
    return refused
      ? { kind: "message", level: "error", text: refused }
      : { kind: "message", text: `${file.path} is ${enabled ? "on" : "off"} for this session.` };
  },
};
