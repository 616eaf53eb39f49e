/**
 * `agent plugin install|list|update|enable|disable|remove` and `agent plugin marketplace add|list|browse|update|remove`:
 * Copilot CLI's subcommand over `$AGENT_HOME/plugins/`. Installing or enabling a plugin is the user's decision
 * that its hooks and MCP servers may run in their sessions; both say which programs those are.
 */
import { Command, CommanderError } from "commander";
import { resolveAgentHome } from "../config/agent-home.js";
import { PluginSourceError } from "../plugins/fetch-source.js";
import { addMarketplace, findMarketplace, listMarketplaces, refreshMarketplace, removeMarketplace } from "../plugins/marketplaces.js";
import { installText, listInstalledText, removeText, setEnabledText, updateText } from "../plugins/plugin-actions.js";
import { PluginStoreError, readInstalled } from "../plugins/plugin-store.js";

export async function runPluginCommand(args: readonly string[]): Promise<number> {
  const agentHome = resolveAgentHome();
  const cwd = process.cwd();
  const out = (text: string): void => void process.stdout.write(`${text}\n`);
  const program = new Command("agent plugin")
    .description("Manage plugins: folders of skills, agents, hooks and MCP servers ($AGENT_HOME/plugins)")
    .exitOverride()
    .helpOption("-h, --help", "show this help");
  program
    .command("install <source>")
    .description("install a plugin from a folder, a git URL (or GitHub owner/repo), or <plugin>@<marketplace>")
    .action(async (source: string) => out(await installText(agentHome, source, cwd)));
  program
    .command("list")
    .description("list the installed plugins")
    .option("--json", "print JSON")
    .action((options: { json?: boolean }) => out(options.json ? JSON.stringify({ plugins: readInstalled(agentHome) }, null, 2) : listInstalledText(agentHome)));
  program
    .command("update [name]")
    .description("fetch a plugin again from where it came from (every plugin when no name is given)")
    .action(async (name: string | undefined) => {
      const names = name ? [name] : readInstalled(agentHome).map((record) => record.name);
      if (names.length === 0) out("No plugins installed.");
      for (const each of names) out(await updateText(agentHome, each, cwd));
    });
  for (const verb of ["enable", "disable"] as const) {
    program
      .command(`${verb} <name>`)
      .description(verb === "enable" ? "load an installed plugin in new sessions again" : "keep an installed plugin out of new sessions")
      .action((name: string) => out(setEnabledText(agentHome, name, verb === "enable")));
  }
  program
    .command("remove <name>")
    .alias("uninstall")
    .description("remove an installed plugin")
    .action((name: string) => out(removeText(agentHome, name)));
  const market = program.command("marketplace").description("marketplaces: folders or git repositories that list plugins (marketplace.json)");
  market
    .command("add <source>")
    .description("add a marketplace from a folder or a git URL")
    .action(async (source: string) => {
      const { manifest } = await addMarketplace(agentHome, source, cwd);
      out(
        `Added marketplace ${manifest.name} (${manifest.plugins.length} plugin${manifest.plugins.length === 1 ? "" : "s"}). Install one with: agent plugin install <plugin>@${manifest.name}`,
      );
    });
  market
    .command("list")
    .description("list the marketplaces added")
    .option("--json", "print JSON")
    .action((options: { json?: boolean }) => {
      const records = listMarketplaces(agentHome);
      if (options.json) return out(JSON.stringify({ marketplaces: records }, null, 2));
      if (records.length === 0) return out("No marketplaces added. Add one with: agent plugin marketplace add <folder|git URL>");
      for (const record of records) out(`${record.name}: ${record.source.kind === "local" ? record.source.path : record.source.url}`);
    });
  market
    .command("browse <name>")
    .description("list the plugins a marketplace offers")
    .action((name: string) => {
      const { manifest } = findMarketplace(agentHome, name);
      if (manifest.plugins.length === 0) return out(`Marketplace ${name} lists no plugins.`);
      for (const entry of manifest.plugins)
        out(`${entry.name}@${name}${entry.version ? ` ${entry.version}` : ""}${entry.description ? `: ${entry.description}` : ""}`);
    });
  market
    .command("update <name>")
    .description("fetch a git marketplace's list again")
    .action(async (name: string) => {
      const manifest = await refreshMarketplace(agentHome, name);
      out(`Marketplace ${name}: ${manifest.plugins.length} plugin${manifest.plugins.length === 1 ? "" : "s"}.`);
    });
  market
    .command("remove <name>")
    .description("remove a marketplace (its installed plugins stay)")
    .action((name: string) => {
      if (!removeMarketplace(agentHome, name)) throw new PluginSourceError(`There is no marketplace named ${name}.`);
      out(`Removed marketplace ${name}.`);
    });
  try {
    await program.parseAsync([...args], { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof PluginSourceError || error instanceof PluginStoreError) {
      process.stderr.write(`agent: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
