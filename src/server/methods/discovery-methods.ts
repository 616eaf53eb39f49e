/**
 * The server-wide discovery methods: the skills, custom agents and instruction files of the user's home and
 * of the project folders a client names, read as a session reads them (the engine's discover-sources), and
 * where new ones would be recognised. The user's disabled skills are settings.json's `disabledSkills`, the
 * list /skills enable|disable keeps; sessions read it when they open.
 */
import path from "node:path";
import { z } from "zod";
import { loadSettings } from "../../config/settings.js";
import { setSkillDisabled, updateSettingsFile } from "../../config/settings-update.js";
import { discovery, type OpenSessionOptions } from "../../core/index.js";
import { agentInfo } from "./agent-methods.js";
import type { DISCOVERY_METHODS } from "./discovery-method-names.js";
import type { MethodTable } from "./owned-session.js";

const projectsSchema = z.looseObject({
  projectPaths: z.array(z.string()).optional(),
  excludeHostSkills: z.boolean().optional(),
  excludeHostAgents: z.boolean().optional(),
  excludeHostInstructions: z.boolean().optional(),
  skillDirectories: z.array(z.string()).optional(),
});
const disabledListSchema = z.looseObject({ disabledSkills: z.array(z.string()) });
const oneSkillSchema = z.looseObject({ name: z.string().min(1), disabled: z.boolean() });

export function discoveryMethods(defaults: OpenSessionOptions): MethodTable<(typeof DISCOVERY_METHODS)[number]> {
  const { agentHome } = defaults;
  const input = (params: unknown, exclude: "excludeHostSkills" | "excludeHostAgents" | "excludeHostInstructions") => {
    const parsed = projectsSchema.parse(params ?? {});
    return {
      agentHome,
      ...(defaults.copilotHome ? { copilotHome: defaults.copilotHome } : {}),
      ...(defaults.skills?.userHome ? { userHome: defaults.skills.userHome } : {}),
      projectPaths: (parsed.projectPaths ?? []).map((dir) => path.resolve(defaults.cwd, dir)),
      excludeHost: parsed[exclude] === true,
      skillDirectories: (parsed.skillDirectories ?? []).map((dir) => path.resolve(defaults.cwd, dir)),
    };
  };
  return {
    "skills.discover": async (_link, params) => {
      const { skillDirectories, ...where } = input(params, "excludeHostSkills");
      const disabled = new Set((await loadSettings(agentHome)).disabledSkills ?? []);
      const found = discovery.discoverSkills({ ...where, configuredDirs: defaults.skills?.directories ?? [], extraDirs: skillDirectories });
      return {
        skills: found.skills.map((skill) => ({
          name: skill.name,
          description: skill.description,
          source: skill.source,
          userInvocable: skill.userInvocable,
          enabled: !disabled.has(skill.name),
          path: skill.file,
          ...(skill.projectPath ? { projectPath: skill.projectPath } : {}),
          ...(skill.argumentHint ? { argumentHint: skill.argumentHint } : {}),
        })),
        ...(found.errors.length > 0 ? { errors: found.errors } : {}),
      };
    },
    "skills.getDiscoveryPaths": (_link, params) => ({
      paths: discovery.skillDiscoveryPaths({ ...input(params, "excludeHostSkills"), configuredDirs: defaults.skills?.directories ?? [] }),
    }),
    "skills.config.setDisabledSkills": (_link, params) => {
      const names = [...new Set(disabledListSchema.parse(params).disabledSkills)];
      updateSettingsFile(agentHome, (settings) => {
        if (names.length > 0) settings.disabledSkills = names;
        else delete settings.disabledSkills;
      });
      return {};
    },
    "skills.config.setSkillDisabled": (_link, params) => {
      const { name, disabled } = oneSkillSchema.parse(params);
      setSkillDisabled(agentHome, name, disabled);
      return {};
    },
    "agents.discover": (_link, params) => ({ agents: discovery.discoverAgents(input(params, "excludeHostAgents")).map((agent) => agentInfo(agent)) }),
    "agents.getDiscoveryPaths": (_link, params) => ({ paths: discovery.agentDiscoveryPaths(input(params, "excludeHostAgents")) }),
    "instructions.discover": (_link, params) => ({
      sources: discovery.discoverInstructions(input(params, "excludeHostInstructions")).map((file) => ({
        id: file.path,
        label: path.basename(file.path),
        sourcePath: file.path,
        content: file.content,
        type: file.location === "user" ? "home" : "repo",
        location: file.location,
        ...(file.projectPath ? { projectPath: file.projectPath } : {}),
      })),
    }),
    "instructions.getDiscoveryPaths": (_link, params) => ({
      paths: discovery.instructionDiscoveryPaths(input(params, "excludeHostInstructions")).map(({ scope, kind, ...rest }) => ({
        ...rest,
        location: scope,
        kind: kind ?? "file",
      })),
    }),
  };
}
