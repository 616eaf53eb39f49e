/**
 * What the Copilot SDK sends, as much of it as the server reads (loose: the SDK sends many fields this
 * agent has no use for, and newer SDKs add more).
 */
import { z } from "zod";
import { REASONING_EFFORTS } from "../provider/provider-config.js";

const toolDeclaration = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  skipPermission: z.boolean().optional(),
});

const provider = z.looseObject({
  type: z.string().optional(),
  wireApi: z.string().optional(),
  baseUrl: z.string().optional(),
  apiKey: z.string().optional(),
  bearerToken: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  modelId: z.string().optional(),
  wireModel: z.string().optional(),
  maxPromptTokens: z.number().optional(),
  maxOutputTokens: z.number().optional(),
  hasBearerTokenProvider: z.boolean().optional(),
});

const customAgent = z.looseObject({
  name: z.string(),
  displayName: z.string().optional(),
  description: z.string().optional(),
  tools: z.array(z.string()).nullable().optional(),
  prompt: z.string(),
  model: z.string().optional(),
  /** false: a person may select it, the model may not delegate to it. */
  infer: z.boolean().optional(),
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  /** The skills it sees, loaded when it starts (an agent file's `skills:`). */
  skills: z.array(z.string()).optional(),
});

/** An SDK app's limits on a session; null (on a resume or an options update) clears them. */
export const sessionLimitsWire = z.looseObject({ maxAiCredits: z.number().positive().optional() }).nullable();

/** session.create and session.resume share the configuration. */
export const sessionConfigSchema = z.looseObject({
  sessionId: z.string(),
  model: z.string().optional(),
  reasoningEffort: z.enum(REASONING_EFFORTS).optional(),
  provider: provider.optional(),
  /** The session's own model registry (checked as providers.json is, in session-models.ts). */
  providers: z.array(z.looseObject({ name: z.string() })).optional(),
  models: z.array(z.looseObject({ id: z.string(), provider: z.string() })).optional(),
  clientName: z.string().optional(),
  instructionDirectories: z.array(z.string()).optional(),
  streaming: z.boolean().optional(),
  includeSubAgentStreamingEvents: z.boolean().optional(),
  systemMessage: z
    .looseObject({
      mode: z.string().optional(),
      content: z.string().optional(),
      sections: z.record(z.string(), z.looseObject({ action: z.string(), content: z.string().optional() })).optional(),
    })
    .optional(),
  availableTools: z.array(z.string()).optional(),
  excludedTools: z.array(z.string()).optional(),
  tools: z.array(toolDeclaration).optional(),
  mcpServers: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  customAgents: z.array(customAgent).optional(),
  skillDirectories: z.array(z.string()).optional(),
  disabledSkills: z.array(z.string()).optional(),
  /** Plugin folders loaded for this session only (as --plugin-dir), and MCP servers it starts disabled. */
  pluginDirectories: z.array(z.string()).optional(),
  disabledMcpServers: z.array(z.string()).optional(),
  excludedBuiltinAgents: z.array(z.string()).optional(),
  sessionLimits: sessionLimitsWire.optional(),
  enableCitations: z.boolean().optional(),
  defaultAgent: z.looseObject({ excludedTools: z.array(z.string()).optional() }).optional(),
  agent: z.string().optional(),
  workingDirectory: z.string().optional(),
  requestPermission: z.boolean().optional(),
  requestUserInput: z.boolean().optional(),
  requestElicitation: z.boolean().optional(),
  requestExitPlanMode: z.boolean().optional(),
  hooks: z.boolean().optional(),
  enableFileHooks: z.boolean().optional(),
  disableResume: z.boolean().optional(),
  /** On a resume: continue the work a client that went away left waiting (else it is interrupted). */
  continuePendingWork: z.boolean().optional(),
  /** Slash commands the client runs itself (command.execute to it, its answer by session.commands.handlePendingCommand). */
  commands: z.array(z.looseObject({ name: z.string(), description: z.string().optional() })).optional(),
});
export type SessionConfig = z.infer<typeof sessionConfigSchema>;
export type CustomAgentConfig = z.infer<typeof customAgent>;

export const sendSchema = z.looseObject({
  sessionId: z.string(),
  prompt: z.string(),
  source: z.string().optional(),
  attachments: z.array(z.looseObject({ type: z.string(), path: z.string().optional(), displayName: z.string().optional() })).optional(),
  mode: z.enum(["enqueue", "immediate"]).optional(),
  agentMode: z.string().optional(),
  requestHeaders: z.record(z.string(), z.string()).optional(),
});

export const sessionIdSchema = z.looseObject({ sessionId: z.string() });

export const pendingToolCallSchema = z.looseObject({
  sessionId: z.string(),
  requestId: z.string(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
});
export const pendingAnswerSchema = z.looseObject({ sessionId: z.string(), requestId: z.string(), result: z.unknown() });

export const listSchema = z.looseObject({
  filter: z.looseObject({ cwd: z.string().optional(), gitRoot: z.string().optional(), branch: z.string().optional() }).optional(),
});
