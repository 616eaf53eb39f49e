/**
 * The system prompt, in our own words: who the agent is, how it works, how to use each tool, the
 * environment, the mode, and the user's custom instructions.
 */
import type { InstructionFile } from "./custom-instructions.js";
import type { WorkingDirectoryContext } from "../protocol/events/index.js";
import type { ModePreset } from "./modes.js";
import { isoTime } from "../util/iso-time.js";

export interface SystemPromptInput {
  context: WorkingDirectoryContext;
  os: string;
  shell: string;
  date: Date;
  toolNames: readonly string[];
  mode: ModePreset;
  /** A person is present to answer questions and approve actions (false for `agent -p`). */
  interactive: boolean;
  instructions: readonly InstructionFile[];
  sessionDir: string;
  /** The custom agent the session runs as: its body leads the prompt. */
  agent?: { name: string; prompt: string };
  /** The skills the model may load: guidance and `<available_skills>` (empty or absent: none; shown only with the skill tool). */
  skills?: string;
  /** Memory's `<context_board>` block (src/memory/context-board.ts), when memory is on and holds anything. */
  contextBoard?: string;
}

const TOOL_GUIDANCE: Record<string, string> = {
  bash: 'bash runs a command in a fresh process in the working directory: `cd` and exported variables do not carry over to the next call, so chain them in one command (`cd sub && make`). Stdin is closed; never start interactive programs or editors. For servers and long jobs use mode "async" and read their output with read_bash; stop them with stop_bash. Give every call a short description.',
  view: "view shows a file with line numbers (`N. text`) or lists a directory two levels deep. Files over 20 KB are cut; use view_range to read further.",
  edit: "edit replaces exactly one occurrence of old_str with new_str. Copy old_str from the file exactly, with enough surrounding lines to be unique. Read the file before editing it.",
  create: "create writes a new file; it fails if the file exists (use edit for existing files).",
  grep: "grep searches file contents with a regular expression (ripgrep syntax), honouring .gitignore. Prefer it over running grep through bash.",
  glob: "glob finds files by name pattern, honouring .gitignore.",
  store_memory:
    "store_memory keeps a fact for later sessions in this repository (a convention, a command that works, a pitfall): only what is stable and not obvious from the code, never a secret; the user approves each one.",
  task_complete: "task_complete ends the task: call it once everything is done and verified, with a summary for the user.",
};

function environmentSection(input: SystemPromptInput): string {
  const { context } = input;
  const lines = [
    `- Working directory: ${context.cwd}`,
    context.gitRoot ? `- Git repository root: ${context.gitRoot}${context.branch ? ` (branch ${context.branch})` : ""}` : "- Not inside a git repository",
    context.repository ? `- Repository: ${context.repository}` : undefined,
    `- Operating system: ${input.os}`,
    `- Shell for bash: ${input.shell}`,
    `- Today's date: ${isoTime(input.date.getTime()).slice(0, 10)}`,
    `- Session folder (for notes and artifacts you want to keep): ${input.sessionDir}`,
  ];
  return lines.filter((line) => line !== undefined).join("\n");
}

function toolsSection(lines: readonly string[]): string {
  return lines.length > 0 ? `<tools>\n${lines.join("\n")}\n</tools>` : "";
}

/** The prompt's parts in order, each named for what it holds (a client can edit them by name: system-prompt-shape.ts). */
export interface SystemPromptPart {
  name: SystemPromptPartName;
  text: string;
}

export type SystemPromptPartName =
  "preamble" | "identity" | "custom_agent" | "guidelines" | "tools" | "environment" | "mode" | "instructions" | "context_board" | "closing" | "after";

export function systemPromptParts(input: SystemPromptInput): SystemPromptPart[] {
  const opening = input.interactive
    ? "You are agent, a coding assistant working in the user's terminal. You help with software engineering: reading and explaining code, fixing bugs, adding features, running builds and tests."
    : "You are agent, a coding assistant running non-interactively: nobody can answer questions or approve actions during this run. Make reasonable assumptions, state them, and carry the task through to the end on your own.";
  const toolLines = input.toolNames.map((name) => TOOL_GUIDANCE[name]).filter((line): line is string => line !== undefined);
  return [
    { name: "preamble", text: "" },
    { name: "identity", text: opening },
    { name: "custom_agent", text: input.agent ? `<custom_agent name="${input.agent.name}">\n${input.agent.prompt}\n</custom_agent>` : "" },
    {
      name: "guidelines",
      text: [
        "<how_to_work>",
        "- Be concise: lead with the answer or the action, no filler. Use Markdown where it helps.",
        "- Understand before changing: search and read the relevant code first, follow the project's conventions, and make the smallest change that solves the problem.",
        "- Verify your work with the project's own tests, build or linter when they exist.",
        "- When several reads or searches do not depend on each other, request them together in one response; they run in parallel.",
        "- Do not commit, push, or delete work you did not create unless the user asks. Never print secrets.",
        "- If a tool call is denied, do not retry the same call; take another route or explain what you need.",
        "</how_to_work>",
      ].join("\n"),
    },
    {
      name: "tools",
      text: toolsSection([...toolLines.map((line) => `- ${line}`), ...(input.skills && input.toolNames.includes("skill") ? [`- ${input.skills}`] : [])]),
    },
    { name: "environment", text: `<environment>\n${environmentSection(input)}\n</environment>` },
    { name: "mode", text: `<mode name="${input.mode.mode}">\n${input.mode.promptNotice({ sessionDir: input.sessionDir })}\n</mode>` },
    {
      name: "instructions",
      text: input.instructions.map((file) => `<custom_instruction path="${file.path}">\n${file.content}\n</custom_instruction>`).join("\n\n"),
    },
    { name: "context_board", text: input.contextBoard ?? "" },
    { name: "closing", text: "" },
  ];
}

/** The parts joined; empty parts leave no gap. */
export function joinSystemPromptParts(parts: readonly SystemPromptPart[]): string {
  return parts
    .map((part) => part.text)
    .filter((text) => text.trim() !== "")
    .join("\n\n");
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  return joinSystemPromptParts(systemPromptParts(input));
}

/** The user's text as the model receives it: Copilot's date header, then any one-time notices. */
export function transformUserMessage(content: string, options: { now: Date; notices: readonly string[] }): string {
  const notices = options.notices.map((notice) => `<mode_changed_notice>\n${notice}\n</mode_changed_notice>\n\n`).join("");
  return `<current_datetime>${isoTime(options.now.getTime())}</current_datetime>\n\n${notices}${content}`;
}
