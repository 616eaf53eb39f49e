/**
 * A marketplace is a folder or git repository whose `marketplace.json` (at its root, or Claude Code's
 * `.claude-plugin/marketplace.json`) lists plugins: `{"name", "owner", "metadata", "plugins": [{"name",
 * "source", "description", "version"}]}`. A plugin's `source` is a folder inside the marketplace (`./x`), a
 * git URL, or `{"source": "github", "repo": "owner/repo"}` / `{"source": "url", "url": …}` (with `ref`, `path`).
 * Adding one records it (a git one is cloned); `agent plugin install <plugin>@<marketplace>` installs from it.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { cloneRepository, looksLikeGitUrl, parseSource, PluginSourceError, type SourceSpec } from "./fetch-source.js";
import { readJsonObject } from "./plugin-manifest.js";
import { marketplaceCloneDir, pluginsDir, readMarketplaces, writeMarketplaces, type MarketplaceRecord } from "./plugin-store.js";

export const MARKETPLACE_PATHS = ["marketplace.json", path.join(".claude-plugin", "marketplace.json"), path.join(".plugin", "marketplace.json")];

export interface MarketplaceEntry {
  name: string;
  description?: string;
  version?: string;
  author?: string;
  source: unknown;
}

export interface MarketplaceManifest {
  name: string;
  description?: string;
  /** The marketplace's root: relative plugin sources resolve against it. */
  root: string;
  /** `metadata.pluginRoot`: the folder a bare plugin source name is in. */
  pluginRoot?: string;
  plugins: MarketplaceEntry[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

export function readMarketplace(dir: string): { ok: true; manifest: MarketplaceManifest } | { ok: false; message: string } {
  const file = MARKETPLACE_PATHS.map((relative) => path.join(dir, relative)).find((candidate) => existsSync(candidate));
  if (!file) return { ok: false, message: `${dir} is not a marketplace: it has no ${MARKETPLACE_PATHS.join(" or ")}` };
  const read = readJsonObject(file);
  if (!read.ok) return read;
  const raw = read.value;
  const name = text(raw.name);
  if (!name || !NAME.test(name) || name.includes(".."))
    return { ok: false, message: `${file}: "name" is missing or not usable (letters, digits, '.', '_' and '-')` };
  const metadata = raw.metadata && typeof raw.metadata === "object" ? (raw.metadata as Record<string, unknown>) : {};
  const plugins = (Array.isArray(raw.plugins) ? raw.plugins : []).flatMap((item: unknown): MarketplaceEntry[] => {
    if (!item || typeof item !== "object") return [];
    const entry = item as Record<string, unknown>;
    const entryName = text(entry.name);
    if (!entryName) return [];
    const author = entry.author && typeof entry.author === "object" ? text((entry.author as Record<string, unknown>).name) : text(entry.author);
    return [
      {
        name: entryName,
        ...(text(entry.description) ? { description: text(entry.description) as string } : {}),
        ...(text(entry.version) ? { version: text(entry.version) as string } : {}),
        ...(author ? { author } : {}),
        source: entry.source ?? `./${entryName}`,
      },
    ];
  });
  // `.claude-plugin/marketplace.json` describes the folder it is in: relative sources start there.
  const root = path.resolve(dir);
  const description = text(raw.description) ?? text(metadata.description);
  const pluginRoot = text(metadata.pluginRoot);
  return { ok: true, manifest: { name, ...(description ? { description } : {}), root, ...(pluginRoot ? { pluginRoot } : {}), plugins } };
}

/** Where a listed plugin is fetched from; `subpath` is a folder inside what is fetched. */
export function entrySource(manifest: MarketplaceManifest, entry: MarketplaceEntry): { spec: SourceSpec; subpath?: string } {
  const source = entry.source;
  const local = (relative: string) => {
    const base = relative.startsWith(".") || !manifest.pluginRoot ? manifest.root : path.resolve(manifest.root, manifest.pluginRoot);
    const full = path.resolve(base, relative);
    if (full !== manifest.root && !full.startsWith(manifest.root + path.sep)) {
      throw new PluginSourceError(`${entry.name}@${manifest.name}: its source ${relative} is outside the marketplace`);
    }
    return { spec: { kind: "local" as const, path: full } };
  };
  if (typeof source === "string") return looksLikeGitUrl(source) ? { spec: { kind: "git", url: source } } : local(source);
  if (source && typeof source === "object") {
    const fields = source as Record<string, unknown>;
    const ref = text(fields.ref) ?? text(fields.sha);
    const subpath = text(fields.path);
    const git = (url: string) => ({ spec: { kind: "git" as const, url, ...(ref ? { ref } : {}) }, ...(subpath ? { subpath } : {}) });
    if (fields.source === "github" && text(fields.repo)) return git(`https://github.com/${fields.repo as string}.git`);
    if ((fields.source === "url" || fields.source === "git") && text(fields.url)) return git(fields.url as string);
    if ((fields.source === "local" || fields.source === "directory") && text(fields.path)) return local(fields.path as string);
  }
  throw new PluginSourceError(
    `${entry.name}@${manifest.name}: its "source" is not one this agent can fetch (a ./folder, a git URL, or {"source": "github", "repo": …})`,
  );
}

export function listMarketplaces(agentHome: string): MarketplaceRecord[] {
  return readMarketplaces(agentHome);
}

export function findMarketplace(agentHome: string, name: string): { record: MarketplaceRecord; manifest: MarketplaceManifest } {
  const record = readMarketplaces(agentHome).find((candidate) => candidate.name === name);
  if (!record) throw new PluginSourceError(`There is no marketplace named ${name}. Add it with: agent plugin marketplace add <folder|git URL>`);
  const read = readMarketplace(record.dir);
  if (!read.ok) throw new PluginSourceError(`Marketplace ${name}: ${read.message}`);
  return { record, manifest: read.manifest };
}

/** Adds a marketplace (a git one is cloned); its manifest names it. */
export async function addMarketplace(
  agentHome: string,
  sourceText: string,
  cwd: string,
): Promise<{ record: MarketplaceRecord; manifest: MarketplaceManifest }> {
  const spec = parseSource(sourceText, cwd);
  if (!spec) throw new PluginSourceError(`${sourceText}: no such folder, and not a git URL`);
  const existing = readMarketplaces(agentHome);
  let dir = spec.kind === "local" ? spec.path : path.join(pluginsDir(agentHome), ".marketplaces", `.fetch-${process.pid}-${Date.now()}`);
  if (spec.kind === "git") await cloneRepository(spec.url, dir, spec.ref);
  const read = readMarketplace(dir);
  const discard = () => spec.kind === "git" && rmSync(dir, { recursive: true, force: true });
  if (!read.ok) {
    discard();
    throw new PluginSourceError(read.message);
  }
  const { name } = read.manifest;
  if (existing.some((record) => record.name === name)) {
    discard();
    throw new PluginSourceError(`A marketplace named ${name} is already added; remove it first (agent plugin marketplace remove ${name}).`);
  }
  if (spec.kind === "git") {
    const clone = marketplaceCloneDir(agentHome, name);
    rmSync(clone, { recursive: true, force: true });
    renameSync(dir, clone);
    dir = clone;
  }
  const record: MarketplaceRecord = {
    name,
    source: spec.kind === "local" ? { kind: "local", path: spec.path } : { kind: "git", url: spec.url },
    dir,
    addedAt: new Date().toISOString(),
  };
  writeMarketplaces(agentHome, [...existing, record]);
  const again = readMarketplace(dir);
  return { record, manifest: again.ok ? again.manifest : read.manifest };
}

/** Removes a marketplace (and our clone of it); its installed plugins stay installed. */
export function removeMarketplace(agentHome: string, name: string): boolean {
  const records = readMarketplaces(agentHome);
  const record = records.find((candidate) => candidate.name === name);
  if (!record) return false;
  if (record.source.kind === "git") rmSync(marketplaceCloneDir(agentHome, name), { recursive: true, force: true });
  writeMarketplaces(
    agentHome,
    records.filter((candidate) => candidate !== record),
  );
  return true;
}

/** Fetches a git marketplace again (a local one is read where it is, so it is always current). */
export async function refreshMarketplace(agentHome: string, name: string): Promise<MarketplaceManifest> {
  const { record } = findMarketplace(agentHome, name);
  if (record.source.kind === "git") {
    const fresh = `${marketplaceCloneDir(agentHome, name)}.refresh-${process.pid}`;
    rmSync(fresh, { recursive: true, force: true });
    await cloneRepository(record.source.url, fresh);
    rmSync(record.dir, { recursive: true, force: true });
    renameSync(fresh, record.dir);
  }
  return findMarketplace(agentHome, name).manifest;
}
