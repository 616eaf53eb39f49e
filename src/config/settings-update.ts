/**
 * Changes one thing in $AGENT_HOME/settings.json for a command (/memory on|off, /skills enable|disable),
 * keeping every other key as it was. A file that is not a JSON object is left alone and the change refused
 * with the reason.
 */
import { readFileSync } from "node:fs";
import { makePrivateDir, replacePrivateFile } from "../util/private-files.js";
import { SettingsError, settingsPath } from "./settings.js";

export function updateSettingsFile(agentHome: string, change: (settings: Record<string, unknown>) => void): void {
  const file = settingsPath(agentHome);
  let text = "";
  try {
    text = readFileSync(file, "utf8");
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
  makePrivateDir(agentHome);
  // Written whole and private (it may hold an API key).
  replacePrivateFile(file, `${JSON.stringify(settings, null, 2)}\n`);
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

/** settings.json `disabledSkills` (/skills enable|disable): the name joins or leaves the list; an empty list goes. */
export function setSkillDisabled(agentHome: string, name: string, disabled: boolean): void {
  updateSettingsFile(agentHome, (settings) => {
    const list = Array.isArray(settings.disabledSkills) ? settings.disabledSkills.filter((item): item is string => typeof item === "string") : [];
    const rest = list.filter((item) => item !== name);
    settings.disabledSkills = disabled ? [...rest, name] : rest;
    if (!disabled && rest.length === 0) delete settings.disabledSkills;
  });
}
