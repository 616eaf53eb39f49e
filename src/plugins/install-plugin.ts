/**
 * `agent plugin install|update|remove|enable|disable`: a plugin is copied (a folder) or cloned (a git URL,
 * or a marketplace's entry) into `$AGENT_HOME/plugins/<name>/`, and recorded with where it came from.
 * Installing runs nothing; it is the user's decision that the plugin's hooks and MCP servers may run in
 * their sessions, so the caller shows what those are. A failed install leaves nothing behind.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { makePrivateDir, PRIVATE_DIR_MODE } from "../util/private-files.js";
import { countSkillFiles } from "./describe-plugin.js";
import { cloneRepository, parseSource, PluginSourceError, type SourceSpec } from "./fetch-source.js";
import { entrySource, findMarketplace } from "./marketplaces.js";
import { readPluginFolder, type PluginFolder, type PluginManifest } from "./plugin-manifest.js";
import { pluginDir, pluginsDir, readInstalled, writeInstalled, type InstalledPluginRecord, type PluginSource } from "./plugin-store.js";

export interface InstallResult {
  record: InstalledPluginRecord;
  plugin: PluginFolder;
  /** How many skills it brings. */
  skills: number;
  /** The version it replaced (update). */
  previousVersion?: string;
}

const MARKETPLACE_SPEC = /^([A-Za-z0-9][A-Za-z0-9_.-]*)@([A-Za-z0-9][A-Za-z0-9_.-]*)$/;

/** Fetches a source (a folder inside it, with `subpath`) into `dest`, which must not exist; a git checkout's `.git` is dropped. */
async function fetchInto(spec: SourceSpec, dest: string, subpath?: string): Promise<void> {
  makePrivateDir(path.dirname(dest));
  if (spec.kind === "local") {
    const from = subpath ? path.resolve(spec.path, subpath) : spec.path;
    if (!existsSync(from)) throw new PluginSourceError(`${from}: no such folder`);
    cpSync(from, dest, { recursive: true, filter: (source) => path.basename(source) !== ".git" });
    return;
  }
  const clone = `${dest}.clone`;
  rmSync(clone, { recursive: true, force: true });
  try {
    await cloneRepository(spec.url, clone, spec.ref);
    const from = subpath ? path.resolve(clone, subpath) : clone;
    if (!from.startsWith(clone) || !existsSync(from)) throw new PluginSourceError(`${spec.url} has no folder ${subpath}`);
    rmSync(path.join(from, ".git"), { recursive: true, force: true });
    renameSync(from, dest);
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}

/** What a spec names: a marketplace's plugin (`name@marketplace`), a folder, or a git URL. */
function resolveSpec(
  agentHome: string,
  text: string,
  cwd: string,
): { spec: SourceSpec; subpath?: string; source: PluginSource; fallback?: Partial<PluginManifest> } {
  const market = MARKETPLACE_SPEC.exec(text);
  const direct = parseSource(text, cwd);
  if (market && direct?.kind !== "local") {
    const [, pluginName, marketplaceName] = market as unknown as [string, string, string];
    const { manifest } = findMarketplace(agentHome, marketplaceName);
    const entry = manifest.plugins.find((candidate) => candidate.name === pluginName);
    if (!entry) {
      const names = manifest.plugins.map((candidate) => candidate.name);
      throw new PluginSourceError(`Marketplace ${marketplaceName} lists no plugin ${pluginName}.${names.length > 0 ? ` It lists: ${names.join(", ")}.` : ""}`);
    }
    const { spec, subpath } = entrySource(manifest, entry);
    const { source: _source, ...fallback } = entry;
    return { spec, ...(subpath ? { subpath } : {}), source: { kind: "marketplace", marketplace: marketplaceName, plugin: pluginName }, fallback };
  }
  if (!direct) throw new PluginSourceError(`${text}: no such folder, not a git URL, and not <plugin>@<marketplace>`);
  return {
    spec: direct,
    source: direct.kind === "local" ? { kind: "local", path: direct.path } : { kind: "git", url: direct.url, ...(direct.ref ? { ref: direct.ref } : {}) },
  };
}

function sourceFor(agentHome: string, source: PluginSource, cwd: string): ReturnType<typeof resolveSpec> {
  switch (source.kind) {
    case "marketplace":
      return resolveSpec(agentHome, `${source.plugin}@${source.marketplace}`, cwd);
    case "local":
      return { spec: { kind: "local", path: source.path }, source };
    case "git":
      return {
        spec: { kind: "git", url: source.url, ...(source.ref ? { ref: source.ref } : {}) },
        ...(source.subpath ? { subpath: source.subpath } : {}),
        source,
      };
  }
}

async function installFrom(
  agentHome: string,
  resolved: ReturnType<typeof resolveSpec>,
  options: { replace?: string; enabled?: boolean },
): Promise<InstallResult> {
  const staging = path.join(pluginsDir(agentHome), `.staging-${process.pid}-${Date.now()}`);
  try {
    await fetchInto(resolved.spec, staging, resolved.subpath);
    const read = readPluginFolder(staging, resolved.fallback);
    if (!read.ok) throw new PluginSourceError(read.message.replace(staging, "the plugin"));
    const { name } = read.plugin.manifest;
    const records = readInstalled(agentHome);
    const existing = records.find((record) => record.name === name);
    if (options.replace !== undefined && options.replace !== name) {
      throw new PluginSourceError(`The source of ${options.replace} now names its plugin "${name}"; remove ${options.replace} and install it again.`);
    }
    if (existing && options.replace === undefined) {
      throw new PluginSourceError(`A plugin named ${name} is already installed; agent plugin update ${name} fetches it again, or remove it first.`);
    }
    if (!read.plugin.manifestFile) {
      // A marketplace entry that describes the plugin itself: the copy keeps that description.
      mkdirSync(path.join(staging, ".plugin"), { recursive: true });
      writeFileSync(path.join(staging, ".plugin", "plugin.json"), `${JSON.stringify(read.plugin.manifest, null, 2)}\n`);
    }
    const target = pluginDir(agentHome, name);
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    chmodSync(target, PRIVATE_DIR_MODE); // a copy keeps its source's modes; the folder itself is the agent's own
    const installed = readPluginFolder(target);
    if (!installed.ok) throw new PluginSourceError(installed.message);
    const record: InstalledPluginRecord = {
      name,
      ...(installed.plugin.manifest.version ? { version: installed.plugin.manifest.version } : {}),
      enabled: options.enabled ?? true,
      installedAt: new Date().toISOString(),
      source: resolved.source,
    };
    writeInstalled(agentHome, [...records.filter((candidate) => candidate.name !== name), record]);
    return {
      record,
      plugin: installed.plugin,
      skills: countSkillFiles(installed.plugin.parts),
      ...(existing?.version ? { previousVersion: existing.version } : {}),
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Installs a plugin from a folder, a git URL or `<plugin>@<marketplace>`, enabled. */
export function installPlugin(agentHome: string, specText: string, cwd: string): Promise<InstallResult> {
  return installFrom(agentHome, resolveSpec(agentHome, specText, cwd), {});
}

function installedRecord(agentHome: string, name: string): InstalledPluginRecord {
  const record = readInstalled(agentHome).find((candidate) => candidate.name === name);
  if (!record) throw new PluginSourceError(`No plugin named ${name} is installed (agent plugin list shows them).`);
  return record;
}

/** Fetches an installed plugin again from where it came from; it stays enabled or disabled as it was. */
export function updatePlugin(agentHome: string, name: string, cwd: string): Promise<InstallResult> {
  const record = installedRecord(agentHome, name);
  return installFrom(agentHome, sourceFor(agentHome, record.source, cwd), { replace: name, enabled: record.enabled });
}

/** Removes an installed plugin and its copy. */
export function removePlugin(agentHome: string, name: string): InstalledPluginRecord {
  const record = installedRecord(agentHome, name);
  writeInstalled(
    agentHome,
    readInstalled(agentHome).filter((candidate) => candidate.name !== name),
  );
  rmSync(pluginDir(agentHome, name), { recursive: true, force: true });
  return record;
}

/** Enables or disables an installed plugin for new sessions; false when it already was. */
export function setPluginEnabled(agentHome: string, name: string, enabled: boolean): boolean {
  const record = installedRecord(agentHome, name);
  if (record.enabled === enabled) return false;
  writeInstalled(
    agentHome,
    readInstalled(agentHome).map((candidate) => (candidate.name === name ? { ...candidate, enabled } : candidate)),
  );
  return true;
}
