/**
 * A plugin is a folder with a manifest: `.plugin/plugin.json` (Copilot CLI), `.claude-plugin/plugin.json`
 * (Claude Code) or `plugin.json` at its root, naming the plugin (`name`, `description`, `version`, `author`)
 * and where its parts are: `agents`, `skills` (folders), `hooks` and `mcpServers` (a file, or the object
 * itself). A part the manifest does not name is found where both products put it by default: `agents/`,
 * `skills/` (or a `SKILL.md` at the root: the plugin is one skill), `hooks/hooks.json` or `hooks.json`, `.mcp.json`.
 * `${PLUGIN_ROOT}`, `${CLAUDE_PLUGIN_ROOT}` and `${COPILOT_PLUGIN_ROOT}` in its hook and MCP files stand for its folder.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseJsonWithComments } from "../util/json-with-comments.js";

export const MANIFEST_PATHS = [path.join(".plugin", "plugin.json"), path.join(".claude-plugin", "plugin.json"), "plugin.json"];
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface PluginManifest {
  name: string;
  description?: string;
  version?: string;
  author?: string;
  postInstallMessage?: string;
}

/** A plugin's parts, as files and folders that exist (paths absolute). */
export interface PluginParts {
  agentDirs: string[];
  skillDirs: string[];
  /** Hook files, or the manifest's own `hooks` object as text. */
  hooks: PluginDocument[];
  /** MCP configuration files (`{"mcpServers": …}`), or the manifest's own `mcpServers` object as text. */
  mcp: PluginDocument[];
}

/** A hook or MCP document of a plugin, its root variables already filled in. */
export interface PluginDocument {
  /** The file it came from (the manifest, for an inline object). */
  file: string;
  text: string;
}

export interface PluginFolder {
  root: string;
  manifest: PluginManifest;
  /** The manifest file, when there is one. */
  manifestFile?: string;
  parts: PluginParts;
  /** What is wrong but did not stop it loading (a part that is missing). */
  problems: string[];
}

export type ReadPlugin = { ok: true; plugin: PluginFolder } | { ok: false; message: string };

/** A JSON file (comments allowed) that must hold an object: the object, or what is wrong. */
export function readJsonObject(file: string): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  try {
    const parsed = parseJsonWithComments(readFileSync(file, "utf8"));
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return { ok: false, message: `${file}: expected a JSON object` };
    return { ok: true, value: parsed as Record<string, unknown> };
  } catch (error) {
    return { ok: false, message: `${file}: not valid JSON (${(error as Error).message})` };
  }
}

export function findManifest(root: string): string | undefined {
  return MANIFEST_PATHS.map((file) => path.join(root, file)).find((file) => existsSync(file));
}

/** `${PLUGIN_ROOT}` (and Claude's and Copilot's names for it) in a JSON text: the folder, escaped as a JSON string's content. */
export function expandPluginRoot(text: string, root: string): string {
  const escaped = JSON.stringify(root).slice(1, -1);
  return text.replace(/\$\{(?:CLAUDE_|COPILOT_)?PLUGIN_ROOT\}/g, () => escaped);
}

/** The variables a plugin's hook and server processes get, naming its folder. */
export function pluginRootEnv(root: string): Record<string, string> {
  return { PLUGIN_ROOT: root, COPILOT_PLUGIN_ROOT: root, CLAUDE_PLUGIN_ROOT: root };
}

function authorOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && typeof (value as { name?: unknown }).name === "string") return (value as { name: string }).name;
  return undefined;
}

const stringOf = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/** A manifest path list: one string or several. */
function pathsOf(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  return undefined;
}

/** A path the manifest names, inside the plugin: `..` out of it is refused. */
function inside(root: string, relative: string): string | undefined {
  const resolved = path.resolve(root, relative);
  return resolved === root || resolved.startsWith(root + path.sep) ? resolved : undefined;
}

/** Reads a plugin folder; `fallback` supplies what a marketplace entry says when the folder has no manifest. */
export function readPluginFolder(folder: string, fallback?: Partial<PluginManifest>): ReadPlugin {
  const root = path.resolve(folder);
  if (!existsSync(root)) return { ok: false, message: `${root}: no such folder` };
  const manifestFile = findManifest(root);
  let raw: Record<string, unknown> = {};
  if (manifestFile) {
    const read = readJsonObject(manifestFile);
    if (!read.ok) return read;
    raw = read.value;
  } else if (!fallback?.name) {
    return { ok: false, message: `${root} is not a plugin: it has no ${MANIFEST_PATHS.join(", ")}` };
  }
  const name = stringOf(raw.name) ?? fallback?.name;
  if (!name || !NAME.test(name) || name.includes("..")) {
    return { ok: false, message: `${manifestFile ?? root}: "name" ${name ? `"${name}" is not usable (letters, digits, '.', '_' and '-')` : "is missing"}` };
  }
  const description = stringOf(raw.description) ?? fallback?.description;
  const version = stringOf(raw.version) ?? fallback?.version;
  const author = authorOf(raw.author) ?? fallback?.author;
  const postInstallMessage = stringOf(raw.postInstallMessage);
  const manifest: PluginManifest = {
    name,
    ...(description ? { description } : {}),
    ...(version ? { version } : {}),
    ...(author ? { author } : {}),
    ...(postInstallMessage ? { postInstallMessage } : {}),
  };
  const problems: string[] = [];
  const source = manifestFile ?? root;
  /** The folders or files a key names (or its default when it names none and the default exists). */
  const located = (key: string, defaults: readonly string[]): string[] => {
    const named = pathsOf(raw[key]);
    if (raw[key] !== undefined && !named) return [];
    const candidates = named ?? defaults;
    const found: string[] = [];
    for (const relative of candidates) {
      const full = inside(root, relative);
      if (!full) problems.push(`${source}: "${key}" ${relative} is outside the plugin's folder`);
      else if (existsSync(full)) found.push(full);
      else if (named) problems.push(`${source}: "${key}" ${relative} does not exist`);
    }
    return found;
  };
  /** A key that may hold the object itself rather than a file's path. */
  const documents = (key: string, defaults: readonly string[]): PluginDocument[] => {
    const value = raw[key];
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const wrapped = key === "mcpServers" && !("mcpServers" in value) ? { mcpServers: value } : value;
      return [{ file: source, text: expandPluginRoot(JSON.stringify(wrapped), root) }];
    }
    return located(key, defaults).flatMap((file) => {
      try {
        return [{ file, text: expandPluginRoot(readFileSync(file, "utf8"), root) }];
      } catch (error) {
        problems.push(`${file}: cannot read (${(error as Error).message})`);
        return [];
      }
    });
  };
  const skillDirs = located("skills", ["skills"]);
  if (raw.skills === undefined && existsSync(path.join(root, "SKILL.md"))) skillDirs.push(root);
  const parts: PluginParts = {
    agentDirs: located("agents", ["agents"]),
    skillDirs,
    hooks: documents("hooks", [path.join("hooks", "hooks.json"), "hooks.json"]),
    mcp: documents("mcpServers", [".mcp.json"]),
  };
  return { ok: true, plugin: { root, manifest, ...(manifestFile ? { manifestFile } : {}), parts, problems } };
}
