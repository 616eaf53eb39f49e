/**
 * Changes one thing in $AGENT_HOME/settings.json for a command (/memory on|off), keeping every other key as
 * it was. A file that is not a JSON object is left alone and the change refused with the reason.
 */
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { writeFileAtomic } from "../util/atomic-write.js";
import { SettingsError, settingsPath } from "./settings.js";

export function updateSettingsFile(agentHome: string, change: (settings: Record<string, unknown>) => void): void {
  const file = settingsPath(agentHome);
  let text = "";
  let mode: number | undefined;
  try {
    text = readFileSync(file, "utf8");
    mode = statSync(file).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new SettingsError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let settings: unknown = {};
  if (text.trim() !== "") {
    try {
      settings = JSON.parse(text);
    } catch (error) {
      throw new SettingsError(`${file} is not valid JSON (${(error as Error).message}); fix it first.`);
    }
  }
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) throw new SettingsError(`${file} is not a JSON object; fix it first.`);
  change(settings as Record<string, unknown>);
  mkdirSync(agentHome, { recursive: true });
  // The file may hold an API key: a rewrite keeps its permissions.
  writeFileAtomic(file, `${JSON.stringify(settings, null, 2)}\n`, mode !== undefined ? { mode } : {});
}

/** settings.json `memory.enabled` (a boolean `memory`, Copilot's spelling, stays a boolean). */
export function setMemoryEnabled(agentHome: string, enabled: boolean): void {
  updateSettingsFile(agentHome, (settings) => {
    const current = settings.memory;
    settings.memory =
      typeof current === "object" && current !== null && !Array.isArray(current)
        ? { ...current, enabled }
        : typeof current === "boolean"
          ? enabled
          : { enabled };
  });
}
