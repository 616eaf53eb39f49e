/**
 * What a session gets from skills and plugins (issue 19), put together in one place for open-session.ts: the
 * plugins it runs with (installed and enabled, and --plugin-dir folders), their MCP documents and agent
 * folders, and the session's skills over every skill folder (the user's, the project's, the plugins', the
 * configured ones). A face passes what settings and its command line say (`SkillSettings`).
 */
import type { TrustSources } from "../../config/folder-trust.js";
import type { PluginMcpDocument } from "../../mcp/mcp-config.js";
import type { Rule } from "../../permissions/rules.js";
import { loadPlugins } from "../../plugins/load-plugins.js";
import { pluginRootEnv } from "../../plugins/plugin-manifest.js";
import { envSkillDirs, skillFolders } from "../../skills/skill-sources.js";
import type { Emit } from "../event-sink.js";
import { SessionSkills } from "./session-skills.js";

/** What settings, the command line and a client say about skills and plugins. */
export interface SkillSettings {
  /** settings.json's `skillDirectories`, a client's `skillDirectories`. */
  directories?: readonly string[];
  /** settings.json's `disabledSkills`, a client's `disabledSkills`. */
  disabled?: readonly string[];
  /** --plugin-dir: plugin folders loaded for this run only. */
  pluginDirs?: readonly string[];
  /** The user's home folder: its `.claude/skills` and `.agents/skills` are read (the CLI gives it; a test need not). */
  userHome?: string;
}

export interface ExtensionsInput extends TrustSources {
  cwd: string;
  gitRoot?: string;
  settings?: SkillSettings;
  emit: Emit;
  setRules(rules: readonly Rule[]): void;
  env?: NodeJS.ProcessEnv;
}

export interface SessionExtensions {
  skills: SessionSkills;
  /** The plugins' MCP servers, for the session's MCP manager. */
  mcp: PluginMcpDocument[];
  /** The plugins' agent folders, for the agent catalog. */
  agentDirs: { dir: string; plugin: string }[];
}

export function sessionExtensions(input: ExtensionsInput): SessionExtensions {
  const env = input.env ?? process.env;
  const readPlugins = () => loadPlugins({ agentHome: input.agentHome, ...(input.settings?.pluginDirs ? { pluginDirs: input.settings.pluginDirs } : {}) });
  const { plugins, problems } = readPlugins();
  // A reload of the skills (/skills reload, a client's) reads the plugins again: one installed since brings its skills.
  let current = plugins;
  let loads = 0;
  const trust = {
    agentHome: input.agentHome,
    ...(input.copilotHome ? { copilotHome: input.copilotHome } : {}),
    ...(input.trustedThisSession ? { trustedThisSession: input.trustedThisSession } : {}),
  };
  const skills = new SessionSkills({
    folders: () => {
      if (loads++ > 0) current = readPlugins().plugins;
      return skillFolders({
        ...trust,
        ...(input.settings?.userHome ? { userHome: input.settings.userHome } : {}),
        cwd: input.cwd,
        ...(input.gitRoot ? { gitRoot: input.gitRoot } : {}),
        plugins: current.flatMap((plugin) =>
          plugin.parts.skillDirs.map((dir) => ({ dir, pluginName: plugin.name, ...(plugin.version ? { pluginVersion: plugin.version } : {}) })),
        ),
        customDirs: [...envSkillDirs(env), ...(input.settings?.directories ?? [])],
      });
    },
    ...(input.settings?.disabled ? { disabled: input.settings.disabled } : {}),
    emit: input.emit,
    trust,
    agentHome: input.agentHome,
    setRules: input.setRules,
    problems,
    plugins: () => current,
  });
  return {
    skills,
    mcp: plugins.flatMap((plugin) => plugin.parts.mcp.map((document) => ({ plugin: plugin.name, ...document, env: pluginRootEnv(plugin.root) }))),
    agentDirs: plugins.flatMap((plugin) => plugin.parts.agentDirs.map((dir) => ({ dir, plugin: plugin.name }))),
  };
}
