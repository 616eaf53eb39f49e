/** The schema of $AGENT_HOME/settings.json (zod), loaded only when there is a settings file to check. */
import { z } from "zod";
import { REASONING_EFFORTS } from "../provider/provider-config.js";

const reasoningEffortSchema = z.enum(REASONING_EFFORTS);

export const providerSettingsSchema = z.object({
  type: z.enum(["openai", "azure", "anthropic"]).optional(),
  /** The OpenAI wire: "completions" (Chat Completions, the default) or "responses". */
  wireApi: z.enum(["completions", "responses"]).optional(),
  baseUrl: z.string().optional(),
  apiKey: z.string().optional(),
  /** Name of an environment variable holding the key, so the key itself stays out of the file. */
  apiKeyEnv: z.string().optional(),
  /** A command that prints the key (run once, and again after a 401). */
  apiKeyCommand: z.string().optional(),
  /** Sent as `Authorization: Bearer`; wins over a key. */
  bearerToken: z.string().optional(),
  model: z.string().optional(),
  reasoningEffort: reasoningEffortSchema.optional(),
  maxPromptTokens: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  azureApiVersion: z.string().optional(),
  timeoutMs: z.number().int().positive().optional(),
  streamIdleTimeoutMs: z.number().int().positive().optional(),
  responseTimeoutMs: z.number().int().positive().optional(),
  retry: z
    .object({
      maxRetries: z.number().int().min(0).optional(),
      baseDelayMs: z.number().min(0).optional(),
      maxDelayMs: z.number().min(0).optional(),
      maxRetryAfterMs: z.number().min(0).optional(),
    })
    .optional(),
});
export type ProviderSettings = z.infer<typeof providerSettingsSchema>;

export const settingsSchema = z.looseObject({
  provider: providerSettingsSchema.optional(),
  /** Copilot's top-level model key; `provider.model` wins when both are set. */
  model: z.string().optional(),
  /** The reasoning effort asked of every model (Copilot's key is effortLevel); --reasoning-effort and /model override it. */
  reasoningEffort: reasoningEffortSchema.optional(),
  effortLevel: reasoningEffortSchema.optional(),
  defaultMode: z.enum(["interactive", "plan", "autopilot"]).optional(),
  maxAutopilotContinues: z.number().int().min(0).optional(),
  /**
   * Subagents' limits: nesting depth, background agents at once, and budgets: per agent (model calls per
   * prompt, tokens, working time) and for all the session's subagents together (model calls, tokens).
   */
  subagents: z
    .object({
      maxDepth: z.number().int().min(1).max(128).optional(),
      maxConcurrency: z.number().int().min(1).max(256).optional(),
      maxTurns: z.number().int().min(1).optional(),
      maxTokens: z.number().int().min(1).optional(),
      maxDurationMs: z.number().int().min(1).optional(),
      sessionMaxTurns: z.number().int().min(1).optional(),
      sessionMaxTokens: z.number().int().min(1).optional(),
    })
    .optional(),
  permissions: z
    .object({
      allow: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      /** Built-in safety checks to switch off, by id (see FLOOR_CHECKS). */
      floor: z.object({ disable: z.array(z.string()).optional() }).optional(),
    })
    .optional(),
  /**
   * MCP: `autoApproveReadOnly` lets tools their server marks read-only (`annotations.readOnlyHint`) run without
   * asking: on every server (`true`) or on the servers named. Off by default; deny and ask rules still apply.
   */
  mcp: z.object({ autoApproveReadOnly: z.union([z.boolean(), z.array(z.string())]).optional() }).optional(),
  /** Copilot CLI's URL lists: allowed and denied URLs or domains. */
  allowedUrls: z.array(z.string()).optional(),
  deniedUrls: z.array(z.string()).optional(),
  /** Copilot's inline hooks (`{"<event>": [...]}`); checked by src/hooks so one bad entry does not stop the session. */
  hooks: z.unknown().optional(),
  /** Turns every hook off (as --no-hooks does). */
  disableAllHooks: z.boolean().optional(),
  /**
   * A preToolUse or permissionRequest hook that breaks (bad exit, crash, timeout, unreadable output) denies the
   * call by default; `true` reports it and lets the call go on as if the hook had said nothing.
   */
  policyHooksFailOpen: z.boolean().optional(),
  /**
   * Memory (see docs/memory.md): `true`/`false`, or `enabled` (the TUI and the server faces; `-p`
   * needs --enable-memory), the context board's token budget, and the detached consolidation after an
   * interactive session (`consolidate`, after `consolidateAfterTurns` user turns).
   */
  memory: z
    .union([
      z.boolean(),
      z.object({
        enabled: z.boolean().optional(),
        boardTokens: z.number().int().min(100).max(50_000).optional(),
        consolidate: z.boolean().optional(),
        consolidateAfterTurns: z.number().int().min(1).optional(),
      }),
    ])
    .optional(),
  /** Automatic compaction: at `threshold` × the model's prompt limit (default 0.8); `auto: false` leaves only /compact. */
  compaction: z.object({ threshold: z.number().gt(0).max(1).optional(), auto: z.boolean().optional() }).optional(),
});
export type Settings = z.infer<typeof settingsSchema>;
