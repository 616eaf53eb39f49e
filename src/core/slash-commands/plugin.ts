/**
 * `/plugin [list|install <source>|update <name>|enable <name>|disable <name>|remove <name>]` (alias `/plugins`):
 * the plugins this session runs and the installed ones; changes apply to new sessions (`/new`), as `agent
 * plugin` makes them. The session's own plugins do not change under it: their hooks and servers are running.
 */
import { partsSummary } from "../../plugins/describe-plugin.js";
import { installText, listInstalledText, removeText, setEnabledText, updateText } from "../../plugins/plugin-actions.js";
import type { SlashCommand, SlashCommandResult } from "./types.js";

/** The subcommands that change the installed plugins (`uninstall` is Copilot's word for remove). */
const CHANGES = ["install", "update", "enable", "disable", "remove", "uninstall"];

export const pluginCommand: SlashCommand = {
  name: "plugin",
  aliases: ["plugins"],
  description: "List the plugins; install, update, enable, disable or remove one (for new sessions)",
  argsHint: "[list|install|update|enable|disable|remove] [name|source]",
  run: async ({ session, args }): Promise<SlashCommandResult> => {
    const [verb = "list", target] = args.split(/\s+/).filter(Boolean);
    const home = session.skills.agentHome;
    if (verb === "list") {
      const running = session.skills.plugins;
      const lines = running.map(
        (plugin) =>
          `  ${plugin.name}${plugin.version ? ` ${plugin.version}` : ""} (${plugin.origin === "plugin-dir" ? "--plugin-dir" : "installed"}) · ${partsSummary(plugin.parts)}`,
      );
      const sections = [
        running.length > 0 ? `This session's plugins:\n${lines.join("\n")}` : "This session has no plugins.",
        ...(home ? [listInstalledText(home)] : []),
      ];
      return { kind: "message", text: sections.join("\n\n") };
    }
    if (!CHANGES.includes(verb))
      return { kind: "message", level: "error", text: `Unknown /plugin subcommand "${verb}". Use list, install, update, enable, disable or remove.` };
    if (!home) return { kind: "message", level: "error", text: "This session has no agent home to install plugins in." };
    if (!target)
      return { kind: "message", level: "error", text: `Usage: /plugin ${verb} <${verb === "install" ? "folder|git URL|plugin@marketplace" : "name"}>` };
    const after = "\nStart a new session (/new) to use the change.";
    try {
      switch (verb) {
        case "install":
          return { kind: "message", text: (await installText(home, target, session.cwd)) + after };
        case "update":
          return { kind: "message", text: (await updateText(home, target, session.cwd)) + after };
        case "enable":
        case "disable":
          return { kind: "message", text: setEnabledText(home, target, verb === "enable") + after };
        default: // remove, uninstall: CHANGES holds no other
          return { kind: "message", text: removeText(home, target) + after };
      }
    } catch (error) {
      return { kind: "message", level: "error", text: (error as Error).message };
    }
  },
};
