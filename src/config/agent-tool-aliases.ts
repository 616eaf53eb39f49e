/**
 * The tool names an agent file may use, and what each stands for in our tool set. Agent files are shared
 * with Copilot CLI, Claude Code and VS Code, so their spellings (`edit`, `Read`, `runCommands`, …) are
 * mapped to our tools; names that map to nothing are reported and dropped, never guessed.
 */

const SHELL = ["bash", "read_bash", "stop_bash", "list_bash"];
const AGENTS = ["task", "read_agent", "write_agent", "list_agents"];
const MEMORY = ["store_memory", "read_memories", "vote_memory", "context_board", "session_digest"];

/** Our tools' own names (including ones other parts of the engine add: task, web_fetch, ask_user…). */
export const KNOWN_TOOL_NAMES: readonly string[] = [
  ...SHELL,
  "view",
  "create",
  "edit",
  "grep",
  "glob",
  "task_complete",
  "exit_plan_mode",
  "ask_user",
  "web_fetch",
  ...AGENTS,
  "sql",
  "skill",
  // Memory's tools (src/memory), offered while memory is on.
  ...MEMORY,
];

/** Aliases, keyed in lower case (matching is case-insensitive). */
const ALIASES: Record<string, readonly string[]> = {
  // Copilot CLI's groups
  read: ["view"],
  edit: ["create", "edit"],
  search: ["grep", "glob"],
  shell: SHELL,
  execute: SHELL,
  agent: AGENTS,
  web: ["web_fetch"],
  // Claude Code
  bash: SHELL,
  bashoutput: ["read_bash"],
  killshell: ["stop_bash"],
  killbash: ["stop_bash"],
  write: ["create", "edit"],
  multiedit: ["edit"],
  notebookread: ["view"],
  ls: ["glob", "view"],
  webfetch: ["web_fetch"],
  // The todo list is the sql tool's (Copilot CLI recognises these names the same way).
  todowrite: ["sql"],
  todoread: ["sql"],
  rg: ["grep"],
  // VS Code
  runcommands: SHELL,
  runinterminal: SHELL,
  terminal: SHELL,
  editfiles: ["create", "edit"],
  codebase: ["grep", "glob", "view"],
  "search/codebase": ["grep", "glob", "view"],
  readfile: ["view"],
  fetch: ["web_fetch"],
  runsubagent: AGENTS,
};

export type ResolvedTools = { tools: string[]; unknown: string[]; mcp: string[] };

/**
 * Resolves a `tools` list: `undefined` when `"*"` is in it (every tool), else our names in first-seen order.
 * `server/tool` names that are no alias are MCP tools, kept as given for the MCP servers to match.
 */
export function resolveToolNames(names: readonly string[]): ResolvedTools | undefined {
  if (names.some((name) => name.trim() === "*")) return undefined;
  const tools = new Set<string>();
  const unknown: string[] = [];
  const mcp: string[] = [];
  for (const raw of names) {
    const name = raw.trim();
    const lower = name.toLowerCase();
    // An alias first: `edit` and `bash` stand for their whole group, as in Copilot CLI.
    const mapped = ALIASES[lower] ?? KNOWN_TOOL_NAMES.filter((tool) => tool === lower);
    if (mapped.length > 0) for (const tool of mapped) tools.add(tool);
    else if (name.includes("/")) mcp.push(name);
    else if (name !== "") unknown.push(name);
  }
  return { tools: [...tools, ...mcp], unknown, mcp };
}
