/**
 * A client's session configuration (session.create / session.resume) as the engine's open request: its
 * endpoint and model, working directory, system message, tool filter, MCP servers and custom agents (the
 * client's own tools are its own: join_client, once the session is open). Everything else the session is made of is the server's (its permission rules, settings, store).
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import type { ProviderConfig } from "../config/provider-config.js";
import { sessionProviders } from "../provider/session-providers.js";
import { loadInstructionDirectories, type InstructionFile, type OpenRequest, type OpenSessionOptions, type SessionPermissions } from "../core/index.js";
import type { ProviderDefaults } from "./session-provider.js";
import { sessionModels, type SessionModels, type SessionTransport } from "./session-models.js";
import { systemMessageOptions, type AskTransform } from "./system-message.js";
import type { CustomAgentConfig, SessionConfig } from "./wire.js";

export interface SessionRequestDefaults {
  cwd: string;
  permissions: SessionPermissions;
  mcp?: OpenSessionOptions["mcp"];
  /** settings.json's skill folders and disabled skills; a client's own are added to them. */
  skills?: OpenSessionOptions["skills"];
  provider: ProviderDefaults;
  makeProvider(config: ProviderConfig): OpenSessionOptions["provider"];
}

function workingDirectory(config: SessionConfig, fallback: string): string {
  if (!config.workingDirectory) return fallback;
  const dir = path.resolve(fallback, config.workingDirectory);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`The working directory ${dir} does not exist.`);
  return dir;
}

/**
 * The client's `skillDirectories` are read after every other skill folder; its `disabledSkills` join settings';
 * its `pluginDirectories` are loaded for this session as --plugin-dir's are.
 */
function withClientSkills(skills: SessionRequestDefaults["skills"], config: SessionConfig, cwd: string): Pick<OpenRequest, "skills"> {
  if (!config.skillDirectories?.length && !config.disabledSkills?.length && !config.pluginDirectories?.length) return skills ? { skills } : {};
  const pluginDirs = [...(skills?.pluginDirs ?? []), ...(config.pluginDirectories ?? []).map((dir) => path.resolve(cwd, dir))];
  return {
    skills: {
      ...skills,
      directories: [...(skills?.directories ?? []), ...(config.skillDirectories ?? [])],
      disabled: [...(skills?.disabled ?? []), ...(config.disabledSkills ?? [])],
      ...(pluginDirs.length > 0 ? { pluginDirs } : {}),
    },
  };
}

/** The client's `mcpServers` join the server's MCP configuration; its `disabledMcpServers` start disabled. */
function withClientMcp(defaults: SessionRequestDefaults["mcp"], config: SessionConfig): Pick<OpenRequest, "mcp"> {
  const servers = config.mcpServers && Object.keys(config.mcpServers).length > 0 ? JSON.stringify({ mcpServers: config.mcpServers }) : undefined;
  const disabled = config.disabledMcpServers ?? [];
  if (!servers && disabled.length === 0) return defaults ? { mcp: defaults } : {};
  return {
    mcp: {
      ...defaults,
      additional: [...(defaults?.additional ?? []), ...(servers ? [servers] : [])],
      ...(disabled.length > 0 ? { disabled: [...(defaults?.disabled ?? []), ...disabled] } : {}),
    },
  };
}

function clientAgent(agent: CustomAgentConfig) {
  return {
    name: agent.name,
    displayName: agent.displayName ?? agent.name,
    description: agent.description ?? "",
    ...(agent.tools ? { tools: agent.tools } : {}),
    ...(agent.model ? { model: agent.model } : {}),
    ...(agent.skills ? { skills: agent.skills } : {}),
    ...(agent.mcpServers && Object.keys(agent.mcpServers).length > 0 ? { mcpServers: agent.mcpServers } : {}),
    source: "user" as const,
    systemPrompt: agent.prompt,
    userInvocable: true,
    modelInvocable: agent.infer !== false,
    file: `(client: ${agent.name})`,
  };
}

/** The open request for a client's session; throws (a JSON-RPC error for the client) when it cannot be served. */
/** The client's instructionDirectories' files go before its system message's text (both after the session's own files). */
function withInstructionDirectories<T extends { extraInstructions?: InstructionFile[] }>(options: T, dirs: readonly string[] | undefined, cwd: string): T {
  const files = dirs?.length ? loadInstructionDirectories(dirs.map((dir) => path.resolve(cwd, dir))) : [];
  return files.length === 0 ? options : { ...options, extraInstructions: [...files, ...(options.extraInstructions ?? [])] };
}

/**
 * `askTransform` puts the prompt's sections to the client's transform callbacks (`systemMessage.transform`);
 * `transport` is what the client adds to the model requests (session-models.ts).
 */
export function sessionRequest(
  config: SessionConfig,
  defaults: SessionRequestDefaults,
  askTransform: AskTransform = async () => undefined,
  transport: SessionTransport = { token: () => Promise.reject(new Error("no client gives tokens")) },
): { request: OpenRequest; models: SessionModels } {
  const resolved = sessionModels(config, defaults.provider, transport);
  if (!resolved.ok) throw new Error(resolved.message);
  const models = resolved.value;
  // The client's reasoning effort wins over the endpoint's default (session.start records it).
  const withEffort = (provider: ProviderConfig) => (config.reasoningEffort ? { ...provider, reasoningEffort: config.reasoningEffort } : provider);
  const providerConfig = withEffort(models.config);
  const make = (provider: ProviderConfig) => defaults.makeProvider(models.prepare(provider));
  // Made from the models as they are when asked: session.provider.add, or a resume's provider, may have changed them.
  const providers = () => sessionProviders(withEffort(models.config), make, models.registry);
  const cwd = workingDirectory(config, defaults.cwd);
  const { flags } = defaults.permissions;
  const request: OpenRequest = {
    sessionId: config.sessionId,
    cwd,
    providerConfig,
    provider: providers().provider,
    createProvider: (model, options) => providers().createProvider(model, options),
    permissions: {
      ...defaults.permissions,
      // Copilot asks the app about every command and read its rules do not allow, read-only ones too.
      askReadOnly: true,
      flags: {
        ...flags,
        ...(config.availableTools ? { availableTools: config.availableTools } : {}),
        ...(config.excludedTools ? { excludedTools: [...(flags.excludedTools ?? []), ...config.excludedTools] } : {}),
      },
    },
    ...withClientMcp(defaults.mcp, config),
    ...withInstructionDirectories(systemMessageOptions(config.systemMessage, askTransform), config.instructionDirectories, cwd),
    ...withClientSkills(defaults.skills, config, cwd),
    ...(config.customAgents?.length ? { extraAgents: config.customAgents.map(clientAgent) } : {}),
    ...(config.excludedBuiltinAgents?.length ? { excludedBuiltinAgents: config.excludedBuiltinAgents } : {}),
    ...(config.sessionLimits !== undefined ? { sessionLimits: config.sessionLimits } : {}),
    ...(config.defaultAgent?.excludedTools?.length ? { defaultAgentExcludedTools: config.defaultAgent.excludedTools } : {}),
  };
  return { request, models };
}
