/**
 * $AGENT_HOME/settings.json: the user's settings, in Copilot CLI's format where the keys overlap.
 * Unknown keys are kept and ignored (Copilot has ~200); a file that is not valid JSON, or a known key
 * with a wrong type, is a clear error naming the file and the key.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { agentModeSchema } from "../core/events/index.js";

export const providerSettingsSchema = z.object({
  type: z.enum(["openai", "azure"]).optional(),
  baseUrl: z.string().optional(),
  apiKey: z.string().optional(),
  /** Name of an environment variable holding the key, so the key itself stays out of the file. */
  apiKeyEnv: z.string().optional(),
  model: z.string().optional(),
  maxPromptTokens: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  azureApiVersion: z.string().optional(),
  timeoutMs: z.number().int().positive().optional(),
  streamIdleTimeoutMs: z.number().int().positive().optional(),
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
  defaultMode: agentModeSchema.optional(),
  maxAutopilotContinues: z.number().int().min(0).optional(),
  permissions: z
    .object({
      allow: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      /** Built-in safety checks to switch off, by id (see FLOOR_CHECKS). */
      floor: z.object({ disable: z.array(z.string()).optional() }).optional(),
    })
    .optional(),
  /** Copilot CLI's URL lists: allowed and denied URLs or domains. */
  allowedUrls: z.array(z.string()).optional(),
  deniedUrls: z.array(z.string()).optional(),
});
export type Settings = z.infer<typeof settingsSchema>;

export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettingsError";
  }
}

export function settingsPath(agentHome: string): string {
  return path.join(agentHome, "settings.json");
}

/** Loads settings.json; a missing file is empty settings. Throws SettingsError with a readable message. */
export function loadSettings(agentHome: string): Settings {
  const file = settingsPath(agentHome);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new SettingsError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  if (text.trim() === "") return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".") || "(root)"}: ${issue.message}`);
    throw new SettingsError(`${file} has invalid settings:\n${problems.join("\n")}`);
  }
  return parsed.data;
}
