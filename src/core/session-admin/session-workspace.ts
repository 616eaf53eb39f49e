/**
 * What a session may change about where it works, while it runs: its working directory (/cwd), the
 * directories tools may use without asking (/add-dir), which custom instruction files reach the model
 * (/instructions) and whether memory's board does (/memory), its name (/rename), other stored sessions
 * (/session delete), its MCP servers (/mcp enable|disable|reload, in mcp-commands.ts), and the files kept
 * in its folder's files/ (an SDK client's createFile). Each change is a command through `dispatch` and ends
 * in an event; the facade only forwards the commands here.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { isInside, PathGate, resolvePhysical, type PathGateOptions } from "../../permissions/paths.js";
import type { CommandResults, SessionCommand } from "../../protocol/commands.js";
import type { WorkingDirectoryContext } from "../../protocol/events/index.js";
import type { SessionStore } from "../../session/session-store.js";
import { writeWorkspaceFile } from "../../session/workspace-files.js";
import type { InstructionFile } from "../custom-instructions.js";
import { workingDirectoryContext } from "../environment.js";
import type { Emit } from "../event-sink.js";
import type { PermissionBroker } from "../permission-broker.js";
import type { SessionMemory } from "../../memory/session-memory.js";
import type { McpManager } from "../../mcp/index.js";
import { isMcpCommand, SessionMcpServers, type McpCommand } from "../mcp-commands.js";

const WORKSPACE_COMMANDS = ["rename", "set_cwd", "record_context", "add_dir", "set_instruction", "delete_session", "write_workspace_file"] as const;
export type WorkspaceCommand = Extract<SessionCommand, { type: (typeof WORKSPACE_COMMANDS)[number] }> | McpCommand;

export function isWorkspaceCommand(command: SessionCommand): command is WorkspaceCommand {
  return (WORKSPACE_COMMANDS as readonly string[]).includes(command.type) || isMcpCommand(command);
}

export interface SessionWorkspaceOptions {
  id: string;
  /** The session folder (its files/ is where write_workspace_file writes). */
  dir: string;
  context: WorkingDirectoryContext;
  emit: Emit;
  permissions: PermissionBroker;
  instructions: readonly InstructionFile[];
  /** The store the session lives in (to find others by a prefix or name). */
  store?: SessionStore;
  /** Deletes another stored session by the session manager's rules; absent, /session delete is refused. */
  deleteSession?(id: string): Promise<string | undefined>;
  /** Memory, which /memory switches on and off (its board is in the system prompt: the main agent watches it). */
  memory?: SessionMemory;
  /** The session's MCP servers, when any are configured. */
  mcp?: McpManager | undefined;
}

/** Where an allowed directory comes from, for /list-dirs. */
export interface AllowedDirectory {
  path: string;
  source: string;
}

const MAX_NAME = 100;

export class SessionWorkspace {
  private current: WorkingDirectoryContext;
  private readonly disabled = new Set<string>();
  /** Directories added with /add-dir in this session (absolute). */
  private readonly added: string[] = [];
  private readonly mcpServers: SessionMcpServers;

  constructor(private readonly options: SessionWorkspaceOptions) {
    this.current = options.context;
    this.mcpServers = new SessionMcpServers(options.mcp, options.emit);
  }

  /** Memory (/memory, /subconscious), when the face set it up. */
  get memory(): SessionMemory | undefined {
    return this.options.memory;
  }

  get cwd(): string {
    return this.current.cwd;
  }

  get context(): WorkingDirectoryContext {
    return this.current;
  }

  /** Every instruction file found at start, with whether it is in the system prompt now. */
  get instructionFiles(): { path: string; enabled: boolean }[] {
    return this.options.instructions.map((file) => ({ path: file.path, enabled: !this.disabled.has(file.path) }));
  }

  /** The instruction files the model sees. */
  get activeInstructions(): InstructionFile[] {
    return this.options.instructions.filter((file) => !this.disabled.has(file.path));
  }

  /** The directories tools may read and write without asking, each with where it comes from. */
  get allowedDirectories(): AllowedDirectory[] {
    const gate = this.options.permissions.pathGate;
    const sources = new Map<string, string>();
    const label = (dir: string, source: string) => {
      const root = resolvePhysical(path.resolve(gate.options.cwd, dir));
      if (!sources.has(root)) sources.set(root, source);
    };
    label(this.current.gitRoot ?? this.current.cwd, this.current.gitRoot ? "working directory (its git root)" : "working directory");
    for (const dir of gate.options.addDirs ?? []) label(dir, this.added.includes(dir) ? "/add-dir" : "--add-dir");
    for (const dir of gate.options.extraRoots ?? []) label(dir, "session folder");
    return gate.roots.map((root) => ({ path: root, source: sources.get(root) ?? "temporary directory" }));
  }

  /** Whether tools may read and write this path without asking (it is inside an allowed directory). */
  allows(given: string): boolean {
    return this.options.permissions.pathGate.check(this.resolvePath(given), "read").inside;
  }

  /** Whether this path is inside the working directory (symlinks resolved as the gate does). */
  contains(given: string): boolean {
    return isInside(resolvePhysical(this.resolvePath(given)), resolvePhysical(this.current.cwd));
  }

  handle<C extends WorkspaceCommand>(command: C): CommandResults[C["type"]];
  handle(command: WorkspaceCommand): CommandResults[WorkspaceCommand["type"]] {
    if (isMcpCommand(command)) return this.mcpServers.handle(command);
    switch (command.type) {
      case "rename":
        return this.rename(command.name);
      case "set_cwd":
        return this.setCwd(command.path);
      case "record_context":
        return this.recordContext(command.context);
      case "add_dir":
        return this.addDir(command.path, command.listed === true);
      case "set_instruction":
        return this.setInstruction(command.path, command.enabled);
      case "delete_session":
        return this.deleteSession(command.id);
      case "write_workspace_file":
        return this.writeFile(command.path, command.content);
    }
  }

  private writeFile(relative: string, content: string): string | undefined {
    try {
      const operation = writeWorkspaceFile(this.options.dir, relative, content);
      this.options.emit("session.workspace_file_changed", { path: relative, operation });
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  private rename(name: string): string | undefined {
    const title = name.replace(/\s+/g, " ").trim();
    if (title === "") return "A session name cannot be empty.";
    if (title.length > MAX_NAME) return `A session name has at most ${MAX_NAME} characters.`;
    this.options.emit("session.title_changed", { title });
    return undefined;
  }

  /** Another stored session already called `name` (any case), by id: `--resume <name>` could not tell them apart. */
  async otherSessionNamed(name: string): Promise<string | undefined> {
    const wanted = name.replace(/\s+/g, " ").trim().toLowerCase();
    const sessions = (await this.options.store?.list()) ?? [];
    return sessions.find((session) => session.id !== this.options.id && session.name?.toLowerCase() === wanted)?.id;
  }

  /** A path as the person typed it: relative to the working directory, `~` for home. */
  resolvePath(text: string): string {
    const home = this.options.permissions.pathGate.homeDir;
    return path.resolve(this.current.cwd, text === "~" || text.startsWith("~/") ? home + text.slice(1) : text);
  }

  /** A directory the person typed, or why it is none. */
  private directory(given: string): { dir: string } | { problem: string } {
    const text = given.trim();
    if (text === "") return { problem: "No directory was given." };
    const dir = this.resolvePath(text);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return { problem: `${dir} is not a directory.` };
    return { dir };
  }

  private setCwd(given: string): string | undefined {
    const found = this.directory(given);
    if ("problem" in found) return found.problem;
    if (found.dir === this.current.cwd) return undefined;
    this.current = workingDirectoryContext(found.dir);
    this.options.permissions.setWorkspace(found.dir, new PathGate({ ...this.gateOptions(), cwd: found.dir }));
    // The system prompt names the cwd: the main agent sends it again after this event.
    this.options.emit("session.context_changed", this.current);
    this.announceDirectories();
    return undefined;
  }

  private recordContext(context: WorkingDirectoryContext): void {
    if (resolvePhysical(this.resolvePath(context.cwd)) !== resolvePhysical(this.current.cwd)) return;
    this.current = { ...context, cwd: this.current.cwd };
    this.options.emit("session.context_changed", this.current);
  }

  private addDir(given: string, listed: boolean): string | undefined {
    const found = this.directory(given);
    if ("problem" in found) return found.problem;
    const gate = this.options.permissions.pathGate;
    if (listed && gate.roots.includes(resolvePhysical(found.dir))) return undefined;
    if (!listed && gate.check(found.dir, "read").inside) return `${found.dir} is already allowed (/list-dirs shows where from).`;
    this.added.push(found.dir);
    const options = this.gateOptions();
    this.options.permissions.setWorkspace(this.current.cwd, new PathGate({ ...options, addDirs: [...(options.addDirs ?? []), found.dir] }));
    this.announceDirectories();
    return undefined;
  }

  /** The gate's options with every directory absolute: `--add-dir sub` meant the directory it was given from, whatever /cwd does later. */
  private gateOptions(): PathGateOptions {
    const { options } = this.options.permissions.pathGate;
    const absolute = (dirs: readonly string[] | undefined) => dirs?.map((dir) => path.resolve(options.cwd, dir));
    return { ...options, addDirs: absolute(options.addDirs) ?? [], extraRoots: absolute(options.extraRoots) ?? [] };
  }

  private announceDirectories(): void {
    const { permissions } = this.options;
    this.options.emit("session.permissions_changed", {
      mode: permissions.allowAll ? "allow-all" : "manual",
      summary: permissions.summary,
      directories: this.allowedDirectories.map((dir) => dir.path),
    });
  }

  private setInstruction(file: string, enabled: boolean): string | undefined {
    if (!this.options.instructions.some((known) => known.path === file)) return `${file} is not one of this session's instruction files.`;
    if (this.disabled.has(file) === !enabled) return undefined;
    if (enabled) this.disabled.delete(file);
    else this.disabled.add(file);
    // The system prompt holds the instructions: the main agent sends it again after this event.
    this.options.emit("session.instructions_changed", { path: file, enabled, active: this.activeInstructions.map((known) => known.path) });
    return undefined;
  }

  private async deleteSession(query: string): Promise<string | undefined> {
    const { store, deleteSession } = this.options;
    if (!store || !deleteSession) return "This session does not know where sessions are stored.";
    const found = await store.resolve(query);
    if (!found.ok) return found.message;
    if (found.id === this.options.id) return "That is the running session: it cannot delete itself. Start another (/new) and delete it from there.";
    const refused = await deleteSession(found.id);
    if (refused !== undefined) return refused;
    this.options.emit("session.info", { infoType: "session", message: `Deleted session ${found.id}.` });
    return undefined;
  }
}
