/**
 * Reads hook definitions from their places: the user's `hooks/*.json` (Copilot's home's, then ours; ours wins
 * on a file name both have), the enabled plugins' hook files (installing a plugin is the user's decision to run
 * them; they run in the plugin's folder with PLUGIN_ROOT, COPILOT_PLUGIN_ROOT and CLAUDE_PLUGIN_ROOT set),
 * `<git root>/.github/hooks/*.json` (repository, only where folder trust lets it run) and the inline `hooks` of settings.json. A bad file is reported by name and field and left out; the good ones load.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";
import { userFolders, type Homes } from "../config/agent-home.js";
import { hookFileSchema, hookMapSchema, isHookEvent, type HookEventName } from "./hook-schema.js";

export type HookSourceKind = "user" | "repo" | "settings" | "plugin";

export interface HookDefinition {
  event: HookEventName;
  command: string;
  /** Absolute; the session's directory when the file names none. */
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs: number;
  matcher?: RegExp;
  /** Where it came from, for /hooks and for warnings (a plugin's hook names its plugin). */
  source: { kind: HookSourceKind; file: string; plugin?: string };
  /**
   * A hook a client answers (the Copilot SDK's `hooks.invoke`) instead of a command: it gets the payload and
   * resolves with what the hook answered (an object, or nothing); `command` is then only its name.
   */
  invoke?(payload: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
}

export interface HookLoadResult {
  hooks: HookDefinition[];
  /** One line per bad file or entry: which file, which field, what is wrong. */
  problems: string[];
}

export const DEFAULT_HOOK_TIMEOUT_SEC = 30;

function describeIssues(file: string, error: z.ZodError, prefix: string): string {
  const issues = error.issues.slice(0, 3).map((issue) => `${[prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "(file)"}: ${issue.message}`);
  return `${file}: ${issues.join("; ")}`;
}

/** `base` resolves a relative `cwd` (the git root for repository hooks, as Copilot does); `env` goes under each hook's own. */
function definitionsOf(map: z.infer<typeof hookMapSchema>, source: HookDefinition["source"], base: string, env?: Record<string, string>): HookDefinition[] {
  const hooks: HookDefinition[] = [];
  for (const [event, entries] of Object.entries(map)) {
    if (!isHookEvent(event)) continue;
    for (const entry of entries) {
      if (entry.type !== "command" || !entry.bash) continue;
      hooks.push({
        event,
        command: entry.bash,
        ...(entry.cwd ? { cwd: path.resolve(base, entry.cwd) } : {}),
        ...(entry.env || env ? { env: { ...env, ...entry.env } } : {}),
        timeoutMs: Math.round((entry.timeoutSec ?? DEFAULT_HOOK_TIMEOUT_SEC) * 1000),
        ...(entry.matcher && entry.matcher !== "*" ? { matcher: new RegExp(`^(?:${entry.matcher})$`) } : {}),
        source,
      });
    }
  }
  return hooks;
}

/** The `*.json` files of a hooks folder, in name order (no folder: none). */
export function hookFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** The user's hook files: each home's, a file of ours replacing Copilot's of the same name. */
export function userHookFiles(homes: Homes): string[] {
  const byName = new Map<string, string>();
  for (const dir of userFolders(homes, "hooks")) for (const file of hookFilesIn(dir)) byName.set(path.basename(file), file);
  return [...byName.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, file]) => file);
}

export function repoHooksDir(gitRoot: string): string {
  return path.join(gitRoot, ".github", "hooks");
}

export function readHookFiles(files: readonly string[], kind: HookSourceKind, base: string): HookLoadResult {
  const result: HookLoadResult = { hooks: [], problems: [] };
  for (const file of files) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      result.problems.push(`${file}: not valid JSON (${(error as Error).message})`);
      continue;
    }
    const parsed = hookFileSchema.safeParse(raw);
    if (!parsed.success) {
      result.problems.push(describeIssues(file, parsed.error, ""));
      continue;
    }
    result.hooks.push(...definitionsOf(parsed.data.hooks, { kind, file }, base));
  }
  return result;
}

/** A plugin's hook document (its root already filled in): the plugin's name, its file, its text, its folder. */
export interface PluginHookDocument {
  plugin: string;
  file: string;
  text: string;
  root: string;
  /** PLUGIN_ROOT and its other names, for the hooks' processes. */
  env: Record<string, string>;
}

/** A plugin's hooks, in Copilot's format; Claude Code's (event names like `PreToolUse`, no `version`) is named as such. */
export function readPluginHooks(documents: readonly PluginHookDocument[]): HookLoadResult {
  const result: HookLoadResult = { hooks: [], problems: [] };
  for (const document of documents) {
    let raw: unknown;
    try {
      raw = JSON.parse(document.text);
    } catch (error) {
      result.problems.push(`plugin ${document.plugin}: ${document.file}: not valid JSON (${(error as Error).message})`);
      continue;
    }
    const parsed = hookFileSchema.safeParse(raw);
    if (!parsed.success) {
      const hooks = (raw as { hooks?: unknown } | null)?.hooks;
      const claude = hooks && typeof hooks === "object" && Object.keys(hooks).some((event) => /^[A-Z]/.test(event));
      result.problems.push(
        claude
          ? `plugin ${document.plugin}: ${document.file} is in Claude Code's hook format, which this agent does not run; its hooks are left out (Copilot's format: {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "…"}]}}).`
          : `plugin ${document.plugin}: ${describeIssues(document.file, parsed.error, "")}`,
      );
      continue;
    }
    result.hooks.push(...definitionsOf(parsed.data.hooks, { kind: "plugin", file: document.file, plugin: document.plugin }, document.root, document.env));
  }
  return result;
}

/** settings.json's inline `hooks`: the event map itself, or a whole hook file's shape. */
export function readSettingsHooks(value: unknown, file: string, base: string): HookLoadResult {
  if (value === undefined) return { hooks: [], problems: [] };
  const wrapped = value !== null && typeof value === "object" && "version" in value && "hooks" in value;
  const parsed = wrapped ? hookFileSchema.safeParse(value) : hookMapSchema.safeParse(value);
  if (!parsed.success) return { hooks: [], problems: [describeIssues(file, parsed.error, "hooks")] };
  const map = "version" in parsed.data ? (parsed.data.hooks as z.infer<typeof hookMapSchema>) : (parsed.data as z.infer<typeof hookMapSchema>);
  return { hooks: definitionsOf(map, { kind: "settings", file }, base), problems: [] };
}

export interface CollectHooksOptions extends Homes {
  cwd: string;
  gitRoot?: string;
  /** settings.json's `hooks`, and the file's path for messages. */
  settingsHooks?: unknown;
  settingsFile: string;
  /** Repository hooks run code written by whoever wrote the repository: only when folder trust allows it. */
  includeRepo: boolean;
  /** The enabled plugins' hook documents. */
  plugins?: readonly PluginHookDocument[];
}

/** User hooks first, then the plugins', then settings, then the repository's, each in file-name order. */
export function collectHooks(options: CollectHooksOptions): HookLoadResult {
  const parts = [
    readHookFiles(userHookFiles(options), "user", options.cwd),
    readPluginHooks(options.plugins ?? []),
    readSettingsHooks(options.settingsHooks, options.settingsFile, options.cwd),
    ...(options.includeRepo && options.gitRoot ? [readHookFiles(hookFilesIn(repoHooksDir(options.gitRoot)), "repo", options.gitRoot)] : []),
  ];
  return { hooks: parts.flatMap((part) => part.hooks), problems: parts.flatMap((part) => part.problems) };
}
