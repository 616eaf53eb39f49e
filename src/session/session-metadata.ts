/**
 * workspace.yaml beside events.jsonl: what listing and resuming need without reading the log. Written with
 * Copilot CLI's keys (plus a few of ours) as `key: <JSON value>` lines, which is valid YAML; read back
 * without a YAML library unless the file was written by someone else.
 */
import { readFileSync } from "node:fs";
import { replacePrivateFile } from "../util/private-files.js";
import path from "node:path";
import { parseYaml } from "../util/yaml-parser.js";
import { isoTime } from "../util/iso-time.js";

export interface SessionMetadata {
  id: string;
  cwd: string;
  name?: string;
  userNamed: boolean;
  createdAt: string;
  updatedAt: string;
  firstPrompt?: string;
  eventCount: number;
  model?: string;
  gitRoot?: string;
  branch?: string;
}

const KEYS: [keyof SessionMetadata, string][] = [
  ["id", "id"],
  ["cwd", "cwd"],
  ["name", "name"],
  ["userNamed", "user_named"],
  ["createdAt", "created_at"],
  ["updatedAt", "updated_at"],
  ["firstPrompt", "first_prompt"],
  ["eventCount", "event_count"],
  ["model", "model"],
  ["gitRoot", "git_root"],
  ["branch", "branch"],
];

export const METADATA_FILE = "workspace.yaml";

export function writeMetadata(dir: string, metadata: SessionMetadata): void {
  const lines = ['client_name: "agent"'];
  for (const [key, yamlKey] of KEYS) {
    const value = metadata[key];
    if (value !== undefined) lines.push(`${yamlKey}: ${JSON.stringify(value)}`);
  }
  replacePrivateFile(path.join(dir, METADATA_FILE), `${lines.join("\n")}\n`);
}

function parseSimpleYaml(text: string): Record<string, unknown> | undefined {
  const result: Record<string, unknown> = {};
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const match = /^([A-Za-z_][\w-]*):\s?(.*)$/.exec(line);
    if (!match) return undefined;
    const raw = (match[2] as string).trim();
    if (raw === "") {
      result[match[1] as string] = null;
      continue;
    }
    try {
      result[match[1] as string] = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  return result;
}

function parseRecord(text: string): Record<string, unknown> | undefined {
  const simple = parseSimpleYaml(text);
  if (simple) return simple;
  const value: unknown = parseYaml(text);
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
}

const asString = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

export async function readMetadata(dir: string): Promise<SessionMetadata | undefined> {
  let text: string;
  try {
    text = readFileSync(path.join(dir, METADATA_FILE), "utf8");
  } catch {
    return undefined;
  }
  let raw: Record<string, unknown> | undefined;
  try {
    raw = parseRecord(text);
  } catch {
    return undefined;
  }
  if (!raw) return undefined;
  const id = asString(raw.id);
  const cwd = asString(raw.cwd);
  if (!id || !cwd) return undefined;
  const created = asString(raw.created_at) ?? isoTime(0);
  return {
    id,
    cwd,
    name: asString(raw.name),
    userNamed: raw.user_named === true,
    createdAt: created,
    updatedAt: asString(raw.updated_at) ?? created,
    firstPrompt: asString(raw.first_prompt) ?? asString(raw.summary),
    eventCount: typeof raw.event_count === "number" ? raw.event_count : 0,
    model: asString(raw.model),
    gitRoot: asString(raw.git_root),
    branch: asString(raw.branch),
  };
}
