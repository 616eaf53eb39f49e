/**
 * What both faces (headless and TUI) need before a session can start: settings, the endpoint, the session
 * store and, for --resume/--continue, which session. Every failure is a message, never a stack trace, and
 * nothing is created on disk before all of it is known to be good.
 */
import os from "node:os";
import { resolveHomes, type Homes } from "../config/agent-home.js";
import type { ProviderConfig } from "../config/provider-config.js";
import { resolveModels } from "../config/resolve-models.js";
import type { ModelRegistry } from "../provider/model-registry.js";
import { loadSettings, SettingsError, settingsPath, type Settings } from "../config/settings.js";
import type { SessionPermissions, SkillSettings, SubagentLimits } from "../core/index.js";
import { FLOOR_CHECKS } from "../permissions/floor.js";
import { buildRules } from "../permissions/policy.js";
import { SessionStore } from "../session/session-store.js";
import type { CliOptions } from "./cli-options.js";
import { subagentLimits } from "./subagent-limits.js";

export interface Bootstrap {
  agentHome: string;
  /** Copilot CLI's home, read as an extra source (never written); see src/config/agent-home.ts. */
  copilotHome?: string;
  settings: Settings;
  providerConfig: ProviderConfig;
  /** Every model the session can switch to or give a subagent (providers.json's and the endpoint's); the endpoint's alone when absent. */
  registry?: ModelRegistry;
  store: SessionStore;
  /** The session to resume, when --resume <id> or --continue named one. */
  resumeId?: string;
  maxAutopilotContinues: number;
  permissions: SessionPermissions;
  subagentLimits: SubagentLimits;
  /** settings' skillDirectories and disabledSkills, and --plugin-dir: what every session of this run is given. */
  skills?: SkillSettings;
}

/** The homes of a bootstrap, as the options of a session or a hook loader take them. */
export const homesOf = (boot: Homes): Homes => ({ agentHome: boot.agentHome, ...(boot.copilotHome ? { copilotHome: boot.copilotHome } : {}) });

export type BootstrapResult = { ok: true; value: Bootstrap } | { ok: false; message: string };

/** The server's start: each session may bring its own endpoint, so a missing default one is only noted. */
export type ServerBootstrap = Omit<Bootstrap, "providerConfig"> & { providerConfig?: ProviderConfig; providerProblem?: string };

export async function bootstrap(options: CliOptions, env: NodeJS.ProcessEnv = process.env): Promise<BootstrapResult> {
  const result = await bootstrapAny(options, env, true);
  if (!result.ok) return result;
  const { providerConfig, registry, providerProblem: _none, ...rest } = result.value;
  return { ok: true, value: { ...rest, providerConfig: providerConfig as ProviderConfig, ...(registry ? { registry } : {}) } };
}

export async function bootstrapServer(options: CliOptions, env: NodeJS.ProcessEnv = process.env) {
  return bootstrapAny(options, env, false);
}

async function bootstrapAny(
  options: CliOptions,
  env: NodeJS.ProcessEnv,
  requireProvider: boolean,
): Promise<{ ok: true; value: ServerBootstrap } | { ok: false; message: string }> {
  const { agentHome, copilotHome } = resolveHomes(env);
  let settings: Settings;
  try {
    settings = await loadSettings(agentHome);
  } catch (error) {
    if (error instanceof SettingsError) return { ok: false, message: error.message };
    throw error;
  }
  const resolved = await resolveModels({
    flags: { model: options.model, reasoningEffort: options.reasoningEffort },
    env,
    settings,
    settingsFile: settingsPath(agentHome),
    agentHome,
  });
  if (!resolved.ok && requireProvider) return { ok: false, message: resolved.message };
  const { rules, errors } = buildRules(options.permissions, settings);
  if (errors.length > 0) return { ok: false, message: `Invalid permission rules:\n  ${errors.join("\n  ")}` };
  const disabledFloorChecks = settings.permissions?.floor?.disable ?? [];
  const unknownChecks = disabledFloorChecks.filter((id) => !FLOOR_CHECKS.some((check) => check.id === id));
  if (unknownChecks.length > 0) {
    return {
      ok: false,
      message: `settings.json permissions.floor.disable: unknown check ${unknownChecks.join(", ")} (checks: ${FLOOR_CHECKS.map((check) => check.id).join(", ")})`,
    };
  }
  const store = new SessionStore(agentHome);
  let resumeId: string | undefined;
  if (typeof options.resume === "string") {
    const found = await store.resolve(options.resume);
    if (!found.ok) return { ok: false, message: found.message };
    resumeId = found.id;
  } else if (options.continue) {
    const latest = await store.latestFor(options.cwd);
    if (!latest) return { ok: false, message: `There is no session to continue in ${options.cwd}. Start one with agent -p "…" or agent.` };
    resumeId = latest.id;
  }
  return {
    ok: true,
    value: {
      agentHome,
      ...(copilotHome ? { copilotHome } : {}),
      settings,
      ...(resolved.ok ? { providerConfig: resolved.value.config, registry: resolved.value.registry } : { providerProblem: resolved.message }),
      store,
      resumeId,
      maxAutopilotContinues: options.maxAutopilotContinues ?? settings.maxAutopilotContinues ?? 5,
      subagentLimits: subagentLimits({ ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}) }, env, settings),
      skills: {
        ...(settings.skillDirectories ? { directories: settings.skillDirectories } : {}),
        ...(settings.disabledSkills ? { disabled: settings.disabledSkills } : {}),
        ...(options.pluginDirs ? { pluginDirs: options.pluginDirs } : {}),
        userHome: env.HOME?.trim() || os.homedir(),
      },
      permissions: {
        flags: options.permissions,
        rules,
        disabledFloorChecks,
        ...(settings.mcp?.autoApproveReadOnly !== undefined ? { mcpReadOnly: settings.mcp.autoApproveReadOnly } : {}),
      },
    },
  };
}
