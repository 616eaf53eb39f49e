/**
 * What the Copilot SDK sends, as much of it as the server reads (loose: the SDK sends many fields this
 * agent has no use for, and newer SDKs add more). The schemas are built when first needed: a session's create,
 * its send and its detach, as an SDK application sends them, are read without them (src/util/plain-object.ts), and
 * building them was ~1 ms of every SDK application's start (docs/benchmarks.md).
 */
import { z } from "zod";
import { isRecord, onFirstUse } from "../provider/plain-fields.js";
import { REASONING_EFFORTS } from "../provider/provider-config.js";
import { plainObject, type PlainShape } from "../util/plain-object.js";

/** The schemas, built at the first call (the plain readers below leave an SDK application's first exchange without it). */
export const wireSchemas = onFirstUse(() => {
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
  const sessionLimits = z.looseObject({ maxAiCredits: z.number().positive().optional() }).nullable();

  /** session.create and session.resume share the configuration. */
  const sessionConfig = z.looseObject({
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
    sessionLimits: sessionLimits.optional(),
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

  const send = z.looseObject({
    sessionId: z.string(),
    prompt: z.string(),
    source: z.string().optional(),
    attachments: z.array(z.looseObject({ type: z.string(), path: z.string().optional(), displayName: z.string().optional() })).optional(),
    mode: z.enum(["enqueue", "immediate"]).optional(),
    agentMode: z.string().optional(),
    requestHeaders: z.record(z.string(), z.string()).optional(),
  });

  return {
    sessionLimits,
    sessionConfig,
    send,
    sessionId: z.looseObject({ sessionId: z.string() }),
    pendingToolCall: z.looseObject({ sessionId: z.string(), requestId: z.string(), result: z.unknown().optional(), error: z.unknown().optional() }),
    pendingAnswer: z.looseObject({ sessionId: z.string(), requestId: z.string(), result: z.unknown() }),
    list: z.looseObject({
      filter: z.looseObject({ cwd: z.string().optional(), gitRoot: z.string().optional(), branch: z.string().optional() }).optional(),
    }),
  };
});

type Schemas = ReturnType<typeof wireSchemas>;
export type SessionConfig = z.infer<Schemas["sessionConfig"]>;
export type CustomAgentConfig = NonNullable<SessionConfig["customAgents"]>[number];
export type SendRequest = z.infer<Schemas["send"]>;

/** The configuration's fields as the plain reader sees them (every field of the schema, the same types). */
const PLAIN_PROVIDER: PlainShape = {
  type: "string?",
  wireApi: "string?",
  baseUrl: "string?",
  apiKey: "string?",
  bearerToken: "string?",
  headers: "schema",
  modelId: "string?",
  wireModel: "string?",
  maxPromptTokens: "number?",
  maxOutputTokens: "number?",
  hasBearerTokenProvider: "boolean?",
};
export const PLAIN_SESSION_CONFIG: PlainShape = {
  sessionId: "string",
  model: "string?",
  reasoningEffort: REASONING_EFFORTS,
  provider: PLAIN_PROVIDER,
  providers: "schema",
  models: "schema",
  clientName: "string?",
  instructionDirectories: "schema",
  streaming: "boolean?",
  includeSubAgentStreamingEvents: "boolean?",
  systemMessage: "schema",
  availableTools: "schema",
  excludedTools: "schema",
  tools: "schema",
  mcpServers: "schema",
  customAgents: "schema",
  skillDirectories: "schema",
  disabledSkills: "schema",
  pluginDirectories: "schema",
  disabledMcpServers: "schema",
  excludedBuiltinAgents: "schema",
  sessionLimits: "schema",
  enableCitations: "boolean?",
  defaultAgent: "schema",
  agent: "string?",
  workingDirectory: "string?",
  requestPermission: "boolean?",
  requestUserInput: "boolean?",
  requestElicitation: "boolean?",
  requestExitPlanMode: "boolean?",
  hooks: "boolean?",
  enableFileHooks: "boolean?",
  disableResume: "boolean?",
  continuePendingWork: "boolean?",
  commands: "schema",
};
export const PLAIN_SEND: PlainShape = {
  sessionId: "string",
  prompt: "string",
  source: "string?",
  attachments: "schema",
  mode: ["enqueue", "immediate"],
  agentMode: "string?",
  requestHeaders: "schema",
};

/** session.create's and session.resume's params. jitless: read once; compiling zod's fast path for it cost more. */
export function readSessionConfig(params: unknown): SessionConfig {
  return (plainObject(params, PLAIN_SESSION_CONFIG) as SessionConfig | undefined) ?? wireSchemas().sessionConfig.parse(params, { jitless: true });
}

/** session.send's params (jitless, as a prompt's few parses do not repay the compiled path). */
export function readSend(params: unknown): SendRequest {
  return (plainObject(params, PLAIN_SEND) as SendRequest | undefined) ?? wireSchemas().send.parse(params, { jitless: true });
}

/** The session a request names (`{ sessionId }`, other fields ignored). */
export function sessionIdOf(params: unknown): string {
  if (isRecord(params) && typeof params["sessionId"] === "string") return params["sessionId"];
  return wireSchemas().sessionId.parse(params).sessionId;
}

export const sessionLimitsWire = (): Schemas["sessionLimits"] => wireSchemas().sessionLimits;
export const pendingToolCallSchema = (): Schemas["pendingToolCall"] => wireSchemas().pendingToolCall;
export const pendingAnswerSchema = (): Schemas["pendingAnswer"] => wireSchemas().pendingAnswer;
export const listSchema = (): Schemas["list"] => wireSchemas().list;
