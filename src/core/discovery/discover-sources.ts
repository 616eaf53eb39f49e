/**
 * The skills, custom agents and instruction files a set of project folders and the user's home hold, read
 * the way a session reads them, for a client that asks for no session in particular (the SDK's
 * skills/agents/instructions.discover), and the folders where a new one would be recognised
 * (getDiscoveryPaths). `excludeHost` leaves out the user's own (home) sources. Nothing here runs a program:
 * listing a repository's files needs no folder trust.
 */
import path from "node:path";
import { loadAgentFiles, type AgentDefinition } from "../../config/agent-files.js";
import { loadPlugins } from "../../plugins/load-plugins.js";
import { loadSkills } from "../../skills/load-skills.js";
import type { SkillDefinition } from "../../skills/skill-file.js";
import { envSkillDirs, skillFolders, type SkillFolder } from "../../skills/skill-sources.js";
import { loadCustomInstructions, type InstructionFile } from "../custom-instructions.js";

export interface DiscoveryInput {
  agentHome: string;
  copilotHome?: string;
  /** The user's home folder (`~/.agents/skills`, `~/.claude/skills`); not read without it. */
  userHome?: string;
  projectPaths: readonly string[];
  /** Leave out the user's own sources (their home folders, installed plugins, configured skill folders). */
  excludeHost?: boolean;
}

export interface DiscoveredSkill extends SkillDefinition {
  /** The project folder a project skill was found in. */
  projectPath?: string;
}

/** A folder where a new skill, agent or instruction file would be recognised (it need not exist yet). */
export interface DiscoveryPath {
  path: string;
  scope: string;
  preferredForCreation: boolean;
  projectPath?: string;
  kind?: "file" | "directory";
}

const PROJECT_SKILL_DIRS = [path.join(".github", "skills"), path.join(".claude", "skills"), path.join(".agents", "skills")];

function homes(input: DiscoveryInput) {
  return { agentHome: input.agentHome, ...(input.copilotHome ? { copilotHome: input.copilotHome } : {}) };
}

/**
 * Every skill found, the first of a name winning as in a session: the user's, then each project's in order,
 * installed plugins', configured folders (settings' `skillDirectories`, COPILOT_SKILLS_DIRS) and `extraDirs`.
 */
export function discoverSkills(input: DiscoveryInput & { configuredDirs?: readonly string[]; extraDirs?: readonly string[]; env?: NodeJS.ProcessEnv }): {
  skills: DiscoveredSkill[];
  errors: string[];
} {
  const host = !input.excludeHost;
  const plugins = host ? loadPlugins({ agentHome: input.agentHome }).plugins : [];
  const base = skillFolders({
    ...(host ? homes(input) : {}),
    ...(host && input.userHome ? { userHome: input.userHome } : {}),
    cwd: input.projectPaths[0] ?? input.agentHome,
    plugins: plugins.flatMap((plugin) =>
      plugin.parts.skillDirs.map((dir) => ({ dir, pluginName: plugin.name, ...(plugin.version ? { pluginVersion: plugin.version } : {}) })),
    ),
    customDirs: host ? [...envSkillDirs(input.env ?? process.env), ...(input.configuredDirs ?? [])] : [],
    clientDirs: input.extraDirs ?? [],
  });
  // skillFolders reads one project (the first); the others' folders come right after it.
  const more: SkillFolder[] = input.projectPaths
    .slice(1)
    .flatMap((root) =>
      PROJECT_SKILL_DIRS.map((sub) => ({ dir: path.resolve(root, sub), origin: { source: "project" as const, trustFolder: path.resolve(root) } })),
    );
  let after = 0;
  base.forEach((folder, index) => {
    if (folder.origin.source === "project") after = index + 1;
  });
  const ordered =
    input.projectPaths.length === 0 ? base.filter((folder) => folder.origin.source !== "project") : [...base.slice(0, after), ...more, ...base.slice(after)];
  const seen = new Set<string>();
  const folders = ordered.filter((folder) => !seen.has(folder.dir) && seen.add(folder.dir));
  const loaded = loadSkills(folders);
  return {
    skills: loaded.skills.map((skill) => (skill.source === "project" && skill.trustFolder ? { ...skill, projectPath: skill.trustFolder } : skill)),
    errors: loaded.errors.map((problem) => `${problem.file}: ${problem.message}`),
  };
}

export function skillDiscoveryPaths(input: DiscoveryInput & { configuredDirs?: readonly string[]; env?: NodeJS.ProcessEnv }): DiscoveryPath[] {
  const paths: DiscoveryPath[] = input.projectPaths.flatMap((root) =>
    PROJECT_SKILL_DIRS.map((sub, index) => ({
      path: path.resolve(root, sub),
      scope: "project",
      preferredForCreation: index === 0,
      projectPath: path.resolve(root),
    })),
  );
  if (input.excludeHost) return paths;
  const own = [input.agentHome, ...(input.copilotHome && path.resolve(input.copilotHome) !== path.resolve(input.agentHome) ? [input.copilotHome] : [])];
  own.forEach((home, index) => paths.push({ path: path.join(home, "skills"), scope: "personal-copilot", preferredForCreation: index === 0 }));
  if (input.userHome) {
    for (const dir of [path.join(input.userHome, ".agents", "skills"), path.join(input.userHome, ".claude", "skills")]) {
      paths.push({ path: dir, scope: "personal-agents", preferredForCreation: false });
    }
  }
  for (const dir of [...envSkillDirs(input.env ?? process.env), ...(input.configuredDirs ?? [])]) {
    paths.push({ path: path.resolve(input.agentHome, dir), scope: "custom", preferredForCreation: false });
  }
  return paths;
}

/** The custom agents (not the built-ins): the user's and installed plugins' (unless excluded), then each project's. */
export function discoverAgents(input: DiscoveryInput): AgentDefinition[] {
  const host = !input.excludeHost;
  const plugins = host ? loadPlugins({ agentHome: input.agentHome }).plugins : [];
  const byName = new Map<string, AgentDefinition>();
  const roots = input.projectPaths.length > 0 ? input.projectPaths : [undefined];
  for (const root of roots) {
    const { agents } = loadAgentFiles({
      ...(host ? homes(input) : {}),
      ...(root ? { gitRoot: path.resolve(root) } : {}),
      plugins: plugins.flatMap((plugin) => plugin.parts.agentDirs.map((dir) => ({ dir, plugin: plugin.name }))),
    });
    for (const agent of agents) if (agent.source !== "builtin" && !byName.has(agent.name)) byName.set(agent.name, agent);
  }
  return [...byName.values()];
}

export function agentDiscoveryPaths(input: DiscoveryInput): DiscoveryPath[] {
  const paths: DiscoveryPath[] = input.excludeHost ? [] : [{ path: path.join(input.agentHome, "agents"), scope: "user", preferredForCreation: true }];
  for (const root of input.projectPaths) {
    paths.push({ path: path.resolve(root, ".github", "agents"), scope: "project", preferredForCreation: true, projectPath: path.resolve(root) });
  }
  return paths;
}

export interface DiscoveredInstructions extends InstructionFile {
  /** The user's own file (in the agent's home), or a project's. */
  location: "user" | "repository";
  projectPath?: string;
}

/** The instruction files each project holds (AGENTS.md, copilot-instructions.md, `.github/instructions/`), and the user's own. */
export function discoverInstructions(input: DiscoveryInput): DiscoveredInstructions[] {
  const own = path.join(input.agentHome, "copilot-instructions.md");
  const found = new Map<string, DiscoveredInstructions>();
  const roots = input.projectPaths.length > 0 ? input.projectPaths : [input.agentHome];
  for (const root of roots) {
    for (const file of loadCustomInstructions({ cwd: path.resolve(root), agentHome: input.agentHome })) {
      if (found.has(file.path)) continue;
      const mine = file.path === own;
      if (mine && input.excludeHost) continue;
      if (!mine && input.projectPaths.length === 0) continue;
      found.set(file.path, { ...file, location: mine ? "user" : "repository", ...(mine ? {} : { projectPath: path.resolve(root) }) });
    }
  }
  return [...found.values()];
}

export function instructionDiscoveryPaths(input: DiscoveryInput): DiscoveryPath[] {
  const paths: DiscoveryPath[] = input.excludeHost
    ? []
    : [{ path: path.join(input.agentHome, "copilot-instructions.md"), scope: "user", kind: "file", preferredForCreation: true }];
  for (const root of input.projectPaths) {
    const projectPath = path.resolve(root);
    const at = (file: string, kind: "file" | "directory", preferredForCreation = false): DiscoveryPath => ({
      path: path.join(projectPath, file),
      scope: "repository",
      kind,
      preferredForCreation,
      projectPath,
    });
    paths.push(
      at(path.join(".github", "copilot-instructions.md"), "file", true),
      at(path.join(".github", "instructions"), "directory"),
      at("AGENTS.md", "file"),
      at("CLAUDE.md", "file"),
      at("GEMINI.md", "file"),
    );
  }
  return paths;
}
