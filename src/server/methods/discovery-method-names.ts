/** What the skill, agent and instruction files hold, for no session in particular (discovery-methods.ts). */
export const DISCOVERY_METHODS = [
  "skills.discover",
  "skills.getDiscoveryPaths",
  "skills.config.setDisabledSkills",
  "skills.config.setSkillDisabled",
  "agents.discover",
  "agents.getDiscoveryPaths",
  "instructions.discover",
  "instructions.getDiscoveryPaths",
] as const;
