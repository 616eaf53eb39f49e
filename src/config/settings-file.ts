/**
 * Writes one key of $AGENT_HOME/settings.json (a person's choice the agent keeps: /skills disable), leaving
 * every other key as it was. A file that is not valid JSON is not touched: the change is refused with why.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { settingsPath } from "./settings.js";

/** Changes settings.json's keys through `change`; returns why it could not, or undefined. */
export function updateSettingsFile(agentHome: string, change: (settings: Record<string, unknown>) => void): string | undefined {
  const file = settingsPath(agentHome);
  let settings: Record<string, unknown> = {};
  try {
    const text = readFileSync(file, "utf8");
    if (text.trim() !== "") {
      const parsed: unknown = JSON.parse(text);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return `${file} is not a JSON object; fix it first.`;
      settings = parsed as Record<string, unknown>;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return `${file} could not be read (${(error as Error).message}); fix it first.`;
  }
  change(settings);
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`);
  renameSync(temporary, file);
  return undefined;
}
