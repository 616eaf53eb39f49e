/**
 * What each server offered the last time it ran, kept in $AGENT_HOME/mcp-cache/<hash>.json, the hash over the
 * server's configuration (so an edited command, URL or environment starts without a cache). With a cached
 * list the session offers the server's tools at once instead of holding the first request until the server
 * has started; the live list replaces the cached one (and the file) when it differs.
 */
import { readFileSync } from "node:fs";
import { sha256Hex } from "../util/digest.js";
import { makePrivateDir, replacePrivateFile } from "../util/private-files.js";
import path from "node:path";
import type { ConfiguredServer } from "./mcp-config.js";
import type { McpToolInfo } from "./mcp-connection.js";

export interface CachedServer {
  tools: McpToolInfo[];
  instructions?: string;
}

/** Keys in a stable order, so the same configuration always hashes the same. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, stable((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function serverHash(server: ConfiguredServer): string {
  // Neither changes what the server offers: toggling one keeps its cached list.
  const { disabled: _disabled, startupTimeout: _startupTimeout, ...config } = server.config;
  return sha256Hex(JSON.stringify(stable({ name: server.name, transport: server.transport, config }))).slice(0, 32);
}

/** Only what the model is offered (name, description, schema, annotations), so a cache cannot carry more. */
function keep(tool: McpToolInfo): McpToolInfo {
  const { name, title, description, inputSchema, annotations, execution } = tool;
  return {
    name,
    inputSchema,
    ...(title !== undefined ? { title } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    ...(execution !== undefined ? { execution } : {}),
  };
}

export class ToolCache {
  constructor(private readonly dir: string) {}

  private file(server: ConfiguredServer): string {
    return path.join(this.dir, `${serverHash(server)}.json`);
  }

  read(server: ConfiguredServer): CachedServer | undefined {
    try {
      const parsed = JSON.parse(readFileSync(this.file(server), "utf8")) as Partial<CachedServer>;
      if (!Array.isArray(parsed.tools) || !parsed.tools.every((tool) => typeof tool?.name === "string" && typeof tool.inputSchema === "object"))
        return undefined;
      return { tools: parsed.tools, ...(typeof parsed.instructions === "string" ? { instructions: parsed.instructions } : {}) };
    } catch {
      return undefined;
    }
  }

  /** Writes the live list when it differs from `previous`; says whether it did. A failed write only loses the speed-up. */
  update(server: ConfiguredServer, live: CachedServer, previous: CachedServer | undefined): boolean {
    const next: CachedServer = { tools: live.tools.map(keep), ...(live.instructions !== undefined ? { instructions: live.instructions } : {}) };
    if (previous && JSON.stringify(stable(previous)) === JSON.stringify(stable(next))) return false;
    try {
      makePrivateDir(this.dir);
      replacePrivateFile(this.file(server), JSON.stringify(next));
    } catch {
      // The cache is a speed-up; without it the next session waits for the server as the first one did.
    }
    return true;
  }
}

export const toolCacheDir = (agentHome: string): string => path.join(agentHome, "mcp-cache");
