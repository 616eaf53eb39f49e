/**
 * A client's session configuration (session.create / session.resume) as the engine's open request: its
 * endpoint and model, working directory, system message, tool filter, client tools, MCP servers and custom
 * agents. Everything else the session is made of is the server's (its permission rules, settings, store).
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { ProviderConfig } from "../config/provider-config.js";
import { sessionProviders } from "../provider/session-providers.js";
import type { ClientToolDeclaration, OpenRequest, OpenSessionOptions, SessionPermissions } from "../core/index.js";
import { sessionProvider, type ProviderDefaults } from "./session-provider.js";
import { systemMessageOptions, type AskTransform } from "./system-message.js";
import type { CustomAgentConfig, SessionConfig } from "./wire.js";

export interface SessionRequestDefaults {
  cwd: string;
  permissions: SessionPermissions;
  mcp?: OpenSessionOptions["mcp"];
  provider: ProviderDefaults;
  makeProvider(config: ProviderConfig): OpenSessionOptions["provider"];
  /** Makes the tool a client declared (the engine's createClientTool, loaded with it). */
  clientTool(declaration: ClientToolDeclaration, owner: { sessionId: string; cwd: string }): NonNullable<OpenRequest["extraTools"]>[number];
}

function workingDirectory(config: SessionConfig, fallback: string): string {
  if (!config.workingDirectory) return fallback;
  const dir = path.resolve(fallback, config.workingDirectory);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`The working directory ${dir} does not exist.`);
  return dir;
}

function clientAgent(agent: CustomAgentConfig) {
  return {
    name: agent.name,
    displayName: agent.displayName ?? agent.name,
    description: agent.description ?? "",
    ...(agent.tools ? { tools: agent.tools } : {}),
    ...(agent.model ? { model: agent.model } : {}),
    ...(agent.mcpServers && Object.keys(agent.mcpServers).length > 0 ? { mcpServers: agent.mcpServers } : {}),
    source: "user" as const,
    systemPrompt: agent.prompt,
    userInvocable: true,
    modelInvocable: agent.infer !== false,
    file: `(client: ${agent.name})`,
  };
}

/** The open request for a client's session; throws (a JSON-RPC error for the client) when it cannot be served. */
/** `askTransform` puts the prompt's sections to the client's transform callbacks (`systemMessage.transform`). */
export function sessionRequest(config: SessionConfig, defaults: SessionRequestDefaults, askTransform: AskTransform = async () => undefined): OpenRequest {
  const resolved = sessionProvider({ model: config.model, provider: config.provider }, defaults.provider);
  if (!resolved.ok) throw new Error(resolved.message);
  // The client's reasoning effort wins over the endpoint's default (session.start records it).
  const providerConfig = config.reasoningEffort ? { ...resolved.config, reasoningEffort: config.reasoningEffort } : resolved.config;
  const cwd = workingDirectory(config, defaults.cwd);
  const { flags } = defaults.permissions;
  const mcpServers = config.mcpServers && Object.keys(config.mcpServers).length > 0 ? JSON.stringify({ mcpServers: config.mcpServers }) : undefined;
  return {
    sessionId: config.sessionId,
    cwd,
    providerConfig,
    ...sessionProviders(providerConfig, defaults.makeProvider),
    permissions: {
      ...defaults.permissions,
      flags: {
        ...flags,
        ...(config.availableTools ? { availableTools: config.availableTools } : {}),
        ...(config.excludedTools ? { excludedTools: [...(flags.excludedTools ?? []), ...config.excludedTools] } : {}),
      },
    },
    ...(mcpServers || defaults.mcp ? { mcp: { ...defaults.mcp, additional: [...(defaults.mcp?.additional ?? []), ...(mcpServers ? [mcpServers] : [])] } } : {}),
    ...systemMessageOptions(config.systemMessage, askTransform),
    ...(config.tools?.length ? { extraTools: config.tools.map((tool) => defaults.clientTool(tool, { sessionId: config.sessionId, cwd })) } : {}),
    ...(config.customAgents?.length ? { extraAgents: config.customAgents.map(clientAgent) } : {}),
    ...(config.excludedBuiltinAgents?.length ? { excludedBuiltinAgents: config.excludedBuiltinAgents } : {}),
    ...(config.defaultAgent?.excludedTools?.length ? { defaultAgentExcludedTools: config.defaultAgent.excludedTools } : {}),
  };
}
