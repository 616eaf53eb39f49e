/**
 * The user's MCP configuration over the SDK, for no session in particular: mcp.config.* edits
 * $AGENT_HOME/mcp-config.json by the same operations as `agent mcp` (new sessions see the change), and
 * mcp.discover lists the servers every configuration source defines for a directory.
 */
import path from "node:path";
import { z } from "zod";
import type { Homes } from "../../config/agent-home.js";
import { definedServers, type ConfiguredServer } from "../../mcp/mcp-config.js";
import { addServer, readConfigFile, removeServer, replaceServer, serverConfigProblem, setServersDisabled } from "../../mcp/mcp-config-file.js";
import type { MCP_CONFIG_METHODS } from "./method-names.js";
import type { MethodTable } from "./owned-session.js";

const nameSchema = z.looseObject({ name: z.string().min(1) });
const entrySchema = z.looseObject({ name: z.string().min(1), config: z.record(z.string(), z.unknown()) });
const namesSchema = z.looseObject({ names: z.array(z.string()) });
const discoverSchema = z.looseObject({ workingDirectory: z.string().optional() });

/** A client's entry, checked as a configuration file's would be (a bad one is refused with the reason, never written). */
function checkedEntry(params: unknown) {
  const { name, config } = entrySchema.parse(params);
  const problem = serverConfigProblem(name, config);
  if (problem) throw new Error(problem);
  return { name, config };
}

function discovered(server: ConfiguredServer, homes: Homes) {
  const fromHome = [homes.agentHome, homes.copilotHome].some((home) => home !== undefined && path.dirname(server.source) === path.resolve(home));
  return { name: server.name, type: server.transport, source: fromHome ? "user" : "workspace", enabled: server.config.disabled !== true };
}

/** `context`: the server's homes (the user's mcp-config.json is in agentHome) and its working directory. */
export function mcpConfigMethods(context: Homes & { cwd: string }): MethodTable<(typeof MCP_CONFIG_METHODS)[number]> {
  const { agentHome } = context;
  const homes: Homes = { agentHome, ...(context.copilotHome ? { copilotHome: context.copilotHome } : {}) };
  return {
    "mcp.config.list": () => ({ servers: readConfigFile(agentHome).mcpServers }),
    "mcp.config.add": (_link, params) => {
      const { name, config } = checkedEntry(params);
      addServer(agentHome, name, config);
      return {};
    },
    "mcp.config.update": (_link, params) => {
      const { name, config } = checkedEntry(params);
      replaceServer(agentHome, name, config);
      return {};
    },
    "mcp.config.remove": (_link, params) => {
      removeServer(agentHome, nameSchema.parse(params).name);
      return {};
    },
    "mcp.config.enable": (_link, params) => {
      setServersDisabled(agentHome, namesSchema.parse(params).names, false);
      return {};
    },
    "mcp.config.disable": (_link, params) => {
      setServersDisabled(agentHome, namesSchema.parse(params).names, true);
      return {};
    },
    // Each session reads the configuration when it starts (and on /mcp reload): there is no cache to drop.
    "mcp.config.reload": () => ({}),
    "mcp.discover": (_link, params) => {
      const { workingDirectory } = discoverSchema.parse(params ?? {});
      const cwd = workingDirectory ? path.resolve(context.cwd, workingDirectory) : context.cwd;
      return { servers: definedServers({ ...homes, cwd }).map((server) => discovered(server, homes)) };
    },
  };
}
