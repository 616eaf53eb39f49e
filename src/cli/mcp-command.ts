/**
 * `agent mcp list|get|add|remove|enable|disable`: Copilot CLI's subcommand over $AGENT_HOME/mcp-config.json.
 * Servers of Copilot's home are listed and shown too, but never changed: that file is Copilot's.
 *   agent mcp add NAME [--env K=V] [--tools a,b] [--timeout ms] -- COMMAND ARGS…
 *   agent mcp add --transport http|sse NAME URL [--header "K: V"]
 */
import { Command, CommanderError, Option } from "commander";
import { resolveHomes } from "../config/agent-home.js";
import { loadMcpConfig, userConfigPath, type ServerConfig } from "../mcp/mcp-config.js";
import { addServer, McpConfigFileError, readConfigFile, removeServer, setServersDisabled } from "../mcp/mcp-config-file.js";

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function pairs(values: readonly string[], separator: RegExp, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const match = separator.exec(value);
    if (!match || match.index === 0) throw new McpConfigFileError(`${flag} ${value}: expected ${flag === "--env" ? "KEY=VALUE" : '"Name: value"'}`);
    out[value.slice(0, match.index).trim()] = value.slice(match.index + match[0].length).trim();
  }
  return out;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

function describe(name: string, config: ServerConfig): string {
  const type = config.type ?? (config.url ? "http" : "local");
  const target = config.url ?? [config.command, ...(config.args ?? [])].join(" ");
  return `${name} (${type}${config.disabled ? ", disabled" : ""}): ${target}`;
}

export async function runMcpCommand(args: readonly string[]): Promise<number> {
  const homes = resolveHomes();
  const { agentHome } = homes;
  /** A server only Copilot's home configures: shown, never changed here. */
  const copilotOnly = (name: string) =>
    homes.copilotHome && !readConfigFile(agentHome).mcpServers[name]
      ? loadMcpConfig({ ...homes, cwd: process.cwd() }).servers.find(
          (server) => server.name === name && server.source === userConfigPath(homes.copilotHome as string),
        )
      : undefined;
  const notOurs = (name: string, file: string) =>
    new McpConfigFileError(`MCP server ${name} is configured in ${file}, Copilot CLI's home, which agent reads but never changes; edit it there.`);
  const out = (text: string) => process.stdout.write(`${text}\n`);
  const program = new Command("agent mcp")
    .description("Manage MCP servers ($AGENT_HOME/mcp-config.json)")
    .exitOverride()
    .helpOption("-h, --help", "show this help");
  program
    .command("list")
    .description("list the configured servers")
    .option("--json", "print JSON")
    .action((options: { json?: boolean }) => {
      const { servers, problems } = loadMcpConfig({ ...homes, cwd: process.cwd() });
      if (options.json) {
        out(JSON.stringify({ mcpServers: readConfigFile(agentHome).mcpServers }, null, 2));
        return;
      }
      if (servers.length === 0 && Object.keys(readConfigFile(agentHome).mcpServers).length === 0)
        out(`No MCP servers configured. Add one with: agent mcp add NAME -- COMMAND ARGS`);
      for (const [name, config] of Object.entries(readConfigFile(agentHome).mcpServers)) out(describe(name, config));
      for (const server of servers.filter((candidate) => candidate.source !== userConfigPath(agentHome)))
        out(`${describe(server.name, server.config)} [${server.source}]`);
      for (const problem of problems) process.stderr.write(`agent: ${problem}\n`);
    });
  program
    .command("get <name>")
    .description("show one server's configuration")
    .option("--json", "print JSON")
    .action((name: string, options: { json?: boolean }) => {
      const config = readConfigFile(agentHome).mcpServers[name] ?? copilotOnly(name)?.config;
      if (!config) throw new McpConfigFileError(`There is no MCP server named ${name} in ${userConfigPath(agentHome)}.`);
      out(options.json ? JSON.stringify(config, null, 2) : `${describe(name, config)}\n${JSON.stringify(config, null, 2)}`);
    });
  program
    .command("add <name> [targetOrArgs...]")
    .description("add a server: NAME -- COMMAND ARGS, or --transport http|sse NAME URL")
    .addOption(new Option("--transport <transport>", "how to reach it").choices(["stdio", "local", "http", "sse"]).default("local"))
    .option("--env <K=V>", "an environment variable for a local server (repeatable)", collect, [])
    .option("--header <header>", 'an HTTP header, "Name: value" (repeatable)', collect, [])
    .option("--tools <tools>", 'the tools to offer: "*" or a comma-separated list', "*")
    .option("--timeout <ms>", "how long a tool call may take, in milliseconds")
    .option("--json", "print the added entry as JSON")
    .action(
      (name: string, rest: string[], options: { transport: string; env: string[]; header: string[]; tools: string; timeout?: string; json?: boolean }) => {
        const remote = options.transport === "http" || options.transport === "sse";
        if (remote && rest.length !== 1) throw new McpConfigFileError(`agent mcp add --transport ${options.transport} NAME URL: give exactly one URL`);
        if (!remote && rest.length === 0) throw new McpConfigFileError("agent mcp add NAME -- COMMAND ARGS: give the command after --");
        if (remote && !isHttpUrl(rest[0] as string))
          throw new McpConfigFileError(`agent mcp add --transport ${options.transport} NAME URL: ${rest[0]} is not an http:// or https:// URL`);
        const timeout = options.timeout === undefined ? undefined : Number(options.timeout);
        if (timeout !== undefined && !(Number.isInteger(timeout) && timeout > 0))
          throw new McpConfigFileError(`--timeout ${options.timeout}: expected milliseconds`);
        const tools = options.tools
          .split(",")
          .map((tool) => tool.trim())
          .filter(Boolean);
        const config: ServerConfig = remote
          ? {
              type: options.transport as "http" | "sse",
              url: rest[0] as string,
              ...(options.header.length > 0 ? { headers: pairs(options.header, /:\s*|=/, "--header") } : {}),
              tools,
            }
          : {
              type: "local",
              command: rest[0] as string,
              args: rest.slice(1),
              ...(options.env.length > 0 ? { env: pairs(options.env, /=/, "--env") } : {}),
              tools,
            };
        if (timeout !== undefined) config.timeout = timeout;
        addServer(agentHome, name, config);
        out(options.json ? JSON.stringify({ [name]: config }, null, 2) : `Added MCP server ${name} to ${userConfigPath(agentHome)}.`);
      },
    );
  const edit = (verb: string, description: string, change: (name: string) => void) =>
    program
      .command(`${verb} <name>`)
      .description(description)
      .action((name: string) => {
        const copilots = copilotOnly(name);
        if (copilots) throw notOurs(name, copilots.source);
        change(name);
        out(`MCP server ${name}: ${verb === "remove" ? "removed" : `${verb}d`}.`);
      });
  edit("remove", "remove a server", (name) => removeServer(agentHome, name));
  edit("enable", "start a disabled server again in new sessions", (name) => setServersDisabled(agentHome, [name], false));
  edit("disable", "keep a server from starting (it stays in the file)", (name) => setServersDisabled(agentHome, [name], true));
  try {
    await program.parseAsync([...args], { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof McpConfigFileError) {
      process.stderr.write(`agent: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
