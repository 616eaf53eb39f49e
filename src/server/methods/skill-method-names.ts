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

/** The user's installed plugins and marketplaces, for no session in particular (plugin-methods.ts). */
export const PLUGIN_METHODS = [
  "plugins.list",
  "plugins.install",
  "plugins.uninstall",
  "plugins.update",
  "plugins.updateAll",
  "plugins.enable",
  "plugins.disable",
  "plugins.marketplaces.list",
  "plugins.marketplaces.add",
  "plugins.marketplaces.remove",
  "plugins.marketplaces.browse",
  "plugins.marketplaces.refresh",
] as const;
