/**
 * Commands into the engine: every change to a session is one of these, sent through one `dispatch`. The TUI,
 * the headless runner and the server faces build commands; none of them touches engine objects.
 */
import type { AgentMode, Attachment, SessionLimits, WorkingDirectoryContext } from "./events/index.js";
import type { InteractionReply } from "./interactions.js";
import type { ForkOutcome, RewindOutcome, RewindPoint, RewindPreview, RewindScope } from "./rewind.js";

/** HTTP headers an application adds to one prompt's model requests. */
export type RequestHeaders = Record<string, string>;

/** How a prompt sent while the agent works is delivered: queued after the current prompt, or steering it. */
export type Delivery = "enqueue" | "immediate";

/** Live overrides of the session's subagents (settings' `subagents.agents` and `disabledSubagents`, Copilot's). */
export interface SubagentSettings {
  agents?: Record<string, { model?: string; reasoningEffort?: string }>;
  disabled?: readonly string[];
}

export type SessionCommand =
  /**
   * Text as a person typed it: slash commands, `!cmd` and `@path` mentions are resolved by the core. `from:
   * "application"` (an SDK app's session.send): only a known slash command runs, and anything else (an unknown
   * `/x`, `!x`) goes to the model as written; input that starts no turn still ends with session.idle, which
   * the application waits for.
   */
  | { type: "input"; text: string; attachments?: Attachment[]; delivery?: Delivery; from?: "person" | "application"; requestHeaders?: RequestHeaders }
  /** A prompt for the model as it is (no routing). */
  /** `typed`: what the person typed when it differs from the prompt (`/review` for its template): shown while queued, given back to edit. */
  /** `requestHeaders`: extra HTTP headers on this prompt's model requests (an SDK app's send). */
  | { type: "send"; prompt: string; attachments?: Attachment[]; source?: string; delivery?: Delivery; typed?: string; requestHeaders?: RequestHeaders }
  | { type: "interrupt" }
  /** Answers a pending question (permission, user input, plan approval, client tool, elicitation). */
  | { type: "respond"; requestId: string; reply: InteractionReply }
  | { type: "set_mode"; mode: AgentMode }
  /** /autopilot <objective>: what autopilot works toward (shown as the goal, repeated in its continuations); null clears it. */
  | { type: "set_objective"; objective: string | null }
  /** The session's limits (an SDK app's sessionLimits); null clears them. The model is told of them with the next prompt. */
  | { type: "set_session_limits"; limits: SessionLimits | null }
  /** /model: another model, and optionally how hard it reasons (none, minimal, low, medium, high, xhigh). */
  /**
   * `reconnect`: the model's endpoint changed under the same name (an SDK client's resume brought another
   * provider), so its provider is made anew even when the name and effort stay.
   */
  | { type: "set_model"; model: string; reasoningEffort?: string; reconnect?: boolean }
  /** /agent, --agent: runs the main session as this custom agent (its prompt, its tools); null goes back to the default. */
  | { type: "select_agent"; name: string | null }
  /**
   * /allow-all on|off: approve every tool, path and URL (deny rules and the floor still apply). `only: "urls"`:
   * every URL only (an SDK app's unrestricted URL mode).
   */
  | { type: "set_allow_all"; on: boolean; only?: "urls" }
  /** /reset-allowed-tools: forget this session's approvals. */
  | { type: "reset_allowed_tools" }
  /** Adds or takes back "yes for this session" approvals without asking (an SDK app's session.permissions.modifyRules). */
  | { type: "change_approvals"; add?: ApprovalGrant[]; remove?: ApprovalGrant[] }
  /** The location a directory's kept approvals belong to: its repository's root, else the directory (permission-locations.ts). */
  | { type: "resolve_permission_location"; workingDirectory: string }
  /** Keeps approvals for a location (permissions-config.json, as "yes, always here" does) and gives them to this session too. */
  | { type: "remember_location_approvals"; locationKey: string; add: ApprovalGrant[] }
  /** Gives this session the approvals kept for a directory's location. */
  | { type: "apply_location_approvals"; workingDirectory: string }
  /** `!cmd`: a command the user runs; its output reaches the model with the next prompt. */
  | { type: "run_shell"; command: string }
  /**
   * A slash command the application runs itself (an SDK app's session.commands.enqueue when it listens for
   * command.queued): queued like a prompt, handed to it (command.queued) when its turn comes.
   */
  | { type: "queue_client_command"; command: string }
  /** The application's answer to a command.queued; `stopProcessingQueue` holds the queue until the next prompt. */
  | { type: "answer_client_command"; requestId: string; handled: boolean; stopProcessingQueue?: boolean }
  /** Takes a queued prompt out of the queue (to edit it, or to drop it). */
  | { type: "unqueue"; id: string }
  /** Sends what is queued (after an interrupt the queue waits for this). */
  | { type: "flush_queue" }
  /**
   * Waits for the background agents (a run without a person does before it exits): the main agent gets a
   * turn for each answer; past the timeout they are cancelled. An interrupt ends the wait.
   */
  | { type: "settle_background"; timeoutMs: number }
  /** A follow-up for a background agent (it wakes if it waits). */
  | { type: "message_agent"; agentId: string; message: string }
  /** Cancels a background agent (and what it started). */
  | { type: "cancel_agent"; agentId: string }
  /** /rename: the session's name (listing, `--resume <name>`); session.title_changed says so. */
  | { type: "rename"; name: string }
  /** /cwd: the directory tools run in and paths are relative to; session.context_changed says so. */
  | { type: "set_cwd"; path: string }
  /** A client reports the working directory's git context; ignored unless it names the session's cwd (the session's is authoritative). */
  | { type: "record_context"; context: WorkingDirectoryContext }
  /** /add-dir: one more directory tools may read and write without asking, for this session. */
  /** `listed`: kept in the list even when an allowed directory covers it (an SDK app's paths.add lists what it added). */
  | { type: "add_dir"; path: string; listed?: boolean }
  /** Creates or replaces a file in the session folder's files/ (the SDK's createFile); session.workspace_file_changed says so. */
  | { type: "write_workspace_file"; path: string; content: string }
  /** /instructions: leaves a custom instruction file out of the system prompt (or takes it back in). */
  | { type: "set_instruction"; path: string; enabled: boolean }
  /** /session delete: removes another stored session (never the running one, nor one another process holds). */
  | { type: "delete_session"; id: string }
  /** /mcp enable: starts an MCP server disabled for this session (or restarts a failed one); session.mcp_server_status_changed follows it. */
  | { type: "enable_mcp_server"; server: string }
  /** /mcp disable: stops an MCP server for this session. */
  | { type: "disable_mcp_server"; server: string }
  /** An SDK client's session.mcp.stopServer: stops a running MCP server (status `stopped`) until it is enabled again. */
  | { type: "stop_mcp_server"; server: string }
  /** /mcp reload: reads the MCP configuration again and restarts its servers; session.mcp_servers_loaded lists them. */
  | { type: "reload_mcp_servers" }
  /** An SDK client's session.mcp.setEnvValueMode: how MCP servers started from now on read their `env` values. */
  | { type: "set_mcp_env_value_mode"; mode: "direct" | "indirect" }
  /**
   * An SDK client's session.tools.updateSubagentSettings: per agent type, the model and reasoning effort its
   * subagents use from now on, and agent types the model may not start; null clears them.
   */
  | { type: "set_subagent_settings"; settings: SubagentSettings | null }
  /** Stops a background shell (/tasks). */
  | { type: "stop_shell"; shellId: string }
  /** Moves the main agent's running sync agents (or the one run by this task call) to the background (Ctrl+X B). */
  | { type: "background_agent"; toolCallId?: string }
  /** /compact: summarises the conversation so far into a checkpoint and continues from the summary. */
  | { type: "compact"; focus?: string }
  /** The session's skills (read now if they were not yet) and plugins: /skills, the palette, a client's skills.list / plugins.list. */
  | { type: "list_skills" }
  /** /skills enable|disable (and an SDK client's skills.enable/disable): for this session; `persist` keeps it in settings.json's disabledSkills. */
  | { type: "set_skill_enabled"; name: string; enabled: boolean; persist?: boolean }
  /** /skills reload: reads the skill folders again (skills added, changed or removed on disk). */
  | { type: "reload_skills" }
  /** `/<skill> args`: loads a user-invocable skill, then sends `prompt` (the line as typed) after it. */
  | { type: "invoke_skill"; name: string; prompt: string; delivery?: Delivery }
  /** /rewind: the points the session can go back to (prompts and earlier rewinds), oldest first. */
  | { type: "rewind_points" }
  /** What going back to a point would change, without changing anything. */
  | { type: "preview_rewind"; eventId: string; scope: RewindScope }
  /**
   * Goes back to just before a point. Files changed since the agent's last write are kept unless named in
   * `overwrite` ("all": every one); the conversation after the point is hidden from the model, kept in the log.
   */
  | { type: "rewind"; eventId: string; scope: RewindScope; overwrite?: readonly string[] | "all" }
  /** /fork: a new session whose log is this one's up to (not including) `toEventId`, or all of it. */
  | { type: "fork"; toEventId?: string; name?: string }
  /** A message for the session's record from its client (the Copilot SDK's session.log): info, warning or error. */
  | { type: "log"; level: "info" | "warning" | "error"; message: string }
  /** The session's plan (plan.md in its folder): its whole new text, or null to delete it; session.plan_changed says so. */
  | { type: "write_plan"; content: string | null }
  | { type: "shutdown"; reason?: string }
  /** A question beside the conversation: answered by the model with the system prompt alone, nothing recorded. */
  | { type: "ask_aside"; question: string }
  /**
   * A client resumes the session while it is open (the SDK's resume of a live session): session.resume is
   * recorded (unless `silent`) with whether another client held it, whether the client joined live work and
   * whether it continues the pending work; its own tools join the session's (refused when another client
   * provides a tool of the same name). The client that opens a session brings its tools this way too (silent).
   */
  | {
      type: "join_client";
      client: string;
      tools?: readonly ClientToolSpec[];
      alreadyInUse: boolean;
      sessionWasActive: boolean;
      continuePendingWork: boolean;
      silent?: boolean;
    }
  /** The client has let go of the session: the tools it brought with join_client leave with it. */
  | { type: "leave_client"; client: string };

/** A tool a client implements, as it declares it (the SDK's `tools`). */
export interface ClientToolSpec {
  name: string;
  description?: string;
  /** JSON Schema of the arguments, offered to the model as it is. */
  parameters?: Record<string, unknown>;
  /** The client vouches for the tool: no permission request. */
  skipPermission?: boolean;
}

/** One approval as a client names it: a command stem ("git add"), a tool by name, or a URL origin. */
export interface ApprovalGrant {
  kind: "command" | "tool" | "url";
  value: string;
}

/** Where approvals are kept for a directory: its git repository's root ("repo"), else the directory itself ("dir"). */
export interface PermissionLocation {
  locationKey: string;
  locationType: "repo" | "dir";
}

/** What apply_location_approvals gave the session; `changed`: another location was applied before this one. */
export interface AppliedLocation extends PermissionLocation {
  changed: boolean;
  /** Kept approvals by kind: commands, tools and URL origins as grants, and exact paths written or reached outside. */
  applied: { kind: ApprovalGrant["kind"] | "write" | "path"; value: string }[];
}

export type RunOutcome = "completed" | "task_complete" | "max_continues" | "error" | "aborted";

/** How one prompt ended. */
export interface RunResult {
  outcome: RunOutcome;
  /** The last non-empty assistant message of the run. */
  finalMessage: string;
  /** task_complete's summary. */
  summary?: string;
  error?: { kind: string; message: string; statusCode?: number };
  /** Autopilot continuation messages injected. */
  continuations: number;
}

/** A prompt waiting in the queue, as `unqueue` hands it back. */
export interface QueuedItem {
  id: string;
  prompt: string;
  attachments?: Attachment[];
}

/** What `dispatch` returns for each command. */
export interface CommandResults {
  input: Promise<InputResult>;
  send: Promise<RunResult>;
  interrupt: void;
  /** An error message when the answer was not taken (no such request, or a reply of the wrong shape). */
  respond: string | undefined;
  set_mode: void;
  set_objective: void;
  set_session_limits: void;
  set_model: void;
  /** An error message when there is no such agent (naming the valid ones). */
  select_agent: string | undefined;
  set_allow_all: void;
  reset_allowed_tools: void;
  change_approvals: void;
  /** Each: a string when the directory or key cannot be used (why). */
  resolve_permission_location: PermissionLocation | string;
  remember_location_approvals: string | undefined;
  apply_location_approvals: AppliedLocation | string;
  run_shell: Promise<void>;
  queue_client_command: Promise<RunResult>;
  /** False when no command waits under that id. */
  answer_client_command: boolean;
  unqueue: QueuedItem | undefined;
  flush_queue: void;
  /** The last turn the main agent took for its agents' answers, if any. */
  settle_background: Promise<RunResult | undefined>;
  /** Why it was not taken, or undefined. */
  message_agent: string | undefined;
  /** False when no such agent is running. */
  cancel_agent: boolean;
  /** Each: why it was not done, or undefined when it was. */
  rename: string | undefined;
  set_cwd: string | undefined;
  record_context: void;
  add_dir: string | undefined;
  set_instruction: string | undefined;
  write_workspace_file: string | undefined;
  delete_session: Promise<string | undefined>;
  /** Each: why it was not done (no MCP servers, no such server), or undefined once done (reload: once started, or after 5 s). */
  enable_mcp_server: Promise<string | undefined>;
  disable_mcp_server: Promise<string | undefined>;
  stop_mcp_server: Promise<string | undefined>;
  reload_mcp_servers: Promise<string | undefined>;
  /** The mode now in force. */
  set_mcp_env_value_mode: "direct" | "indirect";
  /** Why not (an unknown reasoning effort), or undefined once applied. */
  set_subagent_settings: string | undefined;
  /** False when no such shell was running. */
  stop_shell: Promise<boolean>;
  /** The ids of the agents moved (none when no sync agent was running). */
  background_agent: string[];
  compact: Promise<CompactResult>;
  list_skills: SkillsListing;
  /** Why not, when there is no such skill (or the choice could not be kept). */
  set_skill_enabled: string | undefined;
  /** What did not load, one line per file. */
  reload_skills: { errors: string[]; warnings: string[] };
  /** Settles when the prompt's run ends; rejects when there is no such skill or it cannot be invoked. */
  invoke_skill: Promise<RunResult>;
  rewind_points: RewindPoint[];
  /** A string when the point is unknown. */
  preview_rewind: Promise<RewindPreview | string>;
  rewind: Promise<RewindOutcome>;
  fork: Promise<ForkOutcome>;
  /** The id of the event the message became. */
  log: string;
  /** Why the plan file could not be written, or undefined. */
  write_plan: string | undefined;
  shutdown: void;
  /** The model's answer; rejects when the model could not be reached. */
  ask_aside: Promise<string>;
  /** Why not (a tool name another client of the session provides), or undefined. */
  join_client: string | undefined;
  leave_client: void;
}

/** A skill as the session knows it. */
export interface SkillInfo {
  name: string;
  description: string;
  /** builtin, user, project, plugin or custom. */
  source: string;
  enabled: boolean;
  /** `/<name>` runs it. */
  userInvocable: boolean;
  /** The model sees it and may load it. */
  modelInvocable: boolean;
  /** Its SKILL.md. */
  path: string;
  argumentHint?: string;
  pluginName?: string;
  allowedTools?: string[];
}

/** What `list_skills` answers: the skills, the ones loaded so far, what did not load, and the session's plugins. */
export interface SkillsListing {
  skills: SkillInfo[];
  /** Loaded in this session, oldest first; `trigger`: agent-invoked, user-invoked or context-load. */
  invoked: { name: string; path: string; content: string; allowedTools?: string[]; trigger?: string }[];
  /** One line per file that did not load (errors) or loaded with something to say (warnings). */
  problems: { errors: string[]; warnings: string[] };
  /** `installed` (agent plugin install) or `plugin-dir` (--plugin-dir). */
  plugins: { name: string; version?: string; description?: string; origin: string; root: string }[];
}

/** How a compaction ended; on failure the conversation is as it was. */
export interface CompactResult {
  success: boolean;
  error?: string;
  /** The compaction was stopped by an interrupt. */
  interrupted?: boolean;
  preCompactionTokens?: number;
  postCompactionTokens?: number;
  messagesRemoved?: number;
  checkpointNumber?: number;
  checkpointPath?: string;
  title?: string;
}
export type CommandResult<C extends SessionCommand> = CommandResults[C["type"]];

/** What a face should do after `input` was routed: most input needs nothing more than the events it causes. */
export type InputResult =
  /** Sent to the model (now or queued); `run` settles when that prompt's run ends. */
  | { kind: "prompt"; run: Promise<RunResult> }
  /** Handled by the core (a slash command that only changed state, a shell command); `error` when the command refused its input. */
  | { kind: "done"; error?: string }
  /** A slash command that needs the face: a dialog, a new session, exit. */
  | { kind: "dialog"; dialog: "help" | "model" | "resume" | "agent" | "tasks" | "rewind" }
  | { kind: "new-session" }
  /** Switch to another stored session (/fork made it); `note` says what happened. */
  | { kind: "switch-session"; sessionId: string; note: string }
  | { kind: "exit" }
  /** Text a command produced for the person (a plan, a checkpoint): shown as a block, printed to stdout by -p. */
  | { kind: "show"; title: string; text: string }
  /** The working tree's changes as a unified diff (/diff): coloured in the TUI, plain from -p. */
  | { kind: "diff"; patch: string; summary: string }
  /** Text for the clipboard (/copy): the TUI sends it to the terminal as OSC 52; -p prints it. */
  | { kind: "copy"; text: string }
  /** A file for the person to edit (/memory edit): the TUI opens $EDITOR on it; -p prints its path. */
  | { kind: "edit"; path: string; title: string }
  /** `/name` that is no command (a session.warning says so, with the closest match). */
  | { kind: "unknown-command"; name: string };
