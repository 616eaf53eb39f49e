/** The names of the built-in tools, known without loading them (for --available-tools and --excluded-tools). */
export const BUILTIN_TOOL_NAMES = [
  "bash",
  "read_bash",
  "stop_bash",
  "list_bash",
  "view",
  "create",
  "edit",
  "grep",
  "glob",
  "web_fetch",
  "task_complete",
  "ask_user",
  "exit_plan_mode",
  "sql",
  "skill",
] as const;
