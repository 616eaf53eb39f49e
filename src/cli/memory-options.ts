/** Memory for a face's sessions: on or off from --enable-memory and settings.json, and /memory on|off kept in settings.json. */
import { setMemoryEnabled } from "../config/settings-update.js";
import type { Settings } from "../config/settings.js";
import type { OpenSessionOptions } from "../core/open-session.js";
import { memoryEnabledAtStart, memorySettings } from "../memory/memory-settings.js";
import type { CliOptions } from "./cli-options.js";

export function memoryOptions(
  boot: { agentHome: string; settings: Settings },
  options: Pick<CliOptions, "enableMemory">,
  face: "prompt" | "interactive" | "server",
): NonNullable<OpenSessionOptions["memory"]> {
  const settings = memorySettings(boot.settings.memory);
  return {
    enabled: memoryEnabledAtStart({ flag: options.enableMemory === true, prompt: face === "prompt", settings }),
    settings,
    persist: (enabled) => {
      try {
        setMemoryEnabled(boot.agentHome, enabled);
        return undefined;
      } catch (error) {
        return `It could not be kept for later sessions: ${(error as Error).message}`;
      }
    },
  };
}
