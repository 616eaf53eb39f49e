/**
 * What `agent plugin` keeps: each installed plugin's copy in `$AGENT_HOME/plugins/<name>/`, and their
 * records (where each came from, whether it is enabled) in `$AGENT_HOME/plugins/installed.json`; the
 * marketplaces added in `$AGENT_HOME/plugins/marketplaces.json` (a git one cloned under `.marketplaces/`).
 * Files are written whole and renamed into place, so a session reading them never sees half of one.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { makePrivateDir, replacePrivateFile } from "../util/private-files.js";

/** Where an installed plugin came from, so `agent plugin update` can fetch it again. */
export type PluginSource =
  { kind: "local"; path: string } | { kind: "git"; url: string; ref?: string; subpath?: string } | { kind: "marketplace"; marketplace: string; plugin: string };

export interface InstalledPluginRecord {
  name: string;
  version?: string;
  enabled: boolean;
  installedAt: string;
  source: PluginSource;
}

export type MarketplaceSource = { kind: "local"; path: string } | { kind: "git"; url: string };

export interface MarketplaceRecord {
  name: string;
  source: MarketplaceSource;
  /** The folder its manifest is read from: the local folder itself, or our clone. */
  dir: string;
  addedAt: string;
}

export const pluginsDir = (agentHome: string): string => path.join(agentHome, "plugins");
export const installedFile = (agentHome: string): string => path.join(pluginsDir(agentHome), "installed.json");
export const marketplacesFile = (agentHome: string): string => path.join(pluginsDir(agentHome), "marketplaces.json");
export const pluginDir = (agentHome: string, name: string): string => path.join(pluginsDir(agentHome), name);
export const marketplaceCloneDir = (agentHome: string, name: string): string => path.join(pluginsDir(agentHome), ".marketplaces", name);

export class PluginStoreError extends Error {}

function readList<T>(file: string, key: string): T[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new PluginStoreError(`${file} is not valid JSON (${(error as Error).message}); fix or remove it.`);
  }
  const list = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>)[key] : undefined;
  return Array.isArray(list) ? (list.filter((item) => item && typeof item === "object" && typeof item.name === "string") as T[]) : [];
}

function writeList(file: string, key: string, items: readonly unknown[]): void {
  makePrivateDir(path.dirname(file));
  replacePrivateFile(file, `${JSON.stringify({ [key]: items }, null, 2)}\n`);
}

export function readInstalled(agentHome: string): InstalledPluginRecord[] {
  return readList<InstalledPluginRecord>(installedFile(agentHome), "plugins");
}

export function writeInstalled(agentHome: string, records: readonly InstalledPluginRecord[]): void {
  writeList(installedFile(agentHome), "plugins", records);
}

export function readMarketplaces(agentHome: string): MarketplaceRecord[] {
  return readList<MarketplaceRecord>(marketplacesFile(agentHome), "marketplaces");
}

export function writeMarketplaces(agentHome: string, records: readonly MarketplaceRecord[]): void {
  writeList(marketplacesFile(agentHome), "marketplaces", records);
}
