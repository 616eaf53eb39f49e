/**
 * $AGENT_HOME/settings.json: the user's settings, in Copilot CLI's format where the keys overlap.
 * Unknown keys are kept and ignored (Copilot has ~200); a file that is not valid JSON, or a known key
 * with a wrong type, is a clear error naming the file and the key. The schema (and zod) is loaded only
 * when there is a file to check, which keeps it off the start-up path of most runs.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Settings } from "./settings-schema.js";

export type { ProviderSettings, Settings } from "./settings-schema.js";

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
export async function loadSettings(agentHome: string): Promise<Settings> {
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
  const { settingsSchema } = await import("./settings-schema.js");
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".") || "(root)"}: ${issue.message}`);
    throw new SettingsError(`${file} has invalid settings:\n${problems.join("\n")}`);
  }
  return parsed.data;
}
