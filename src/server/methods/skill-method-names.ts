/** A session's skills, plugins and extensions over the SDK (skill-methods.ts); names only, registered at the handshake. */
export const SKILL_METHODS = [
  "session.skills.list",
  "session.skills.getInvoked",
  "session.skills.enable",
  "session.skills.disable",
  "session.skills.reload",
  "session.skills.ensureLoaded",
  "session.plugins.list",
  "session.plugins.reload",
  "session.extensions.list",
  "session.extensions.enable",
  "session.extensions.disable",
  "session.extensions.reload",
] as const;
