/**
 * A session's skills and plugins (session.skills.*, session.plugins.*), by the same commands as /skills:
 * list_skills reads them, set_skill_enabled toggles one for this session, reload_skills reads the skill
 * folders (and the plugins) again. agent has no extensions: they list as none and cannot be toggled.
 */
import { z } from "zod";
import { onFirstUse } from "../../provider/plain-fields.js";
import type { SessionView } from "../../core/index.js";
import { sessionIdOf } from "../wire.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";
import type { SKILL_METHODS } from "./skill-method-names.js";

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  name: z.looseObject({ sessionId: z.string(), name: z.string().min(1) }),
}));

const EXTENSIONS_UNAVAILABLE = "Extensions not available: agent runs no extensions.";

function listing(session: SessionView) {
  return session.dispatch({ type: "list_skills" });
}

export function skillMethods(owned: Owned): MethodTable<(typeof SKILL_METHODS)[number]> {
  const session = (link: Parameters<Owned>[0], params: unknown) => ownedSession(owned, link, sessionIdOf(params));
  const toggle = (enabled: boolean) => (link: Parameters<Owned>[0], params: unknown) => {
    const { sessionId, name } = schemas().name.parse(params);
    const problem = ownedSession(owned, link, sessionId).dispatch({ type: "set_skill_enabled", name, enabled });
    if (problem) throw new Error(problem);
    return {};
  };
  const noExtensions = () => {
    throw new Error(EXTENSIONS_UNAVAILABLE);
  };
  return {
    "session.skills.list": (link, params) => ({
      skills: listing(session(link, params)).skills.map((skill) => ({
        name: skill.name,
        description: skill.description,
        source: skill.source,
        userInvocable: skill.userInvocable,
        enabled: skill.enabled,
        path: skill.path,
        ...(skill.pluginName ? { pluginName: skill.pluginName } : {}),
        ...(skill.argumentHint ? { argumentHint: skill.argumentHint } : {}),
      })),
    }),
    // The listing keeps the order they were loaded in; the turn each was loaded at is not kept, so it is their position.
    "session.skills.getInvoked": (link, params) => ({
      skills: listing(session(link, params)).invoked.map((skill, index) => ({
        name: skill.name,
        path: skill.path,
        content: skill.content,
        ...(skill.allowedTools ? { allowedTools: skill.allowedTools } : {}),
        invokedAtTurn: index,
      })),
    }),
    "session.skills.enable": toggle(true),
    "session.skills.disable": toggle(false),
    "session.skills.reload": (link, params) => session(link, params).dispatch({ type: "reload_skills" }),
    // Listing reads the skill folders when they were not read yet.
    "session.skills.ensureLoaded": (link, params) => {
      listing(session(link, params));
      return {};
    },
    "session.plugins.list": (link, params) => ({
      plugins: listing(session(link, params)).plugins.map((plugin) => ({
        name: plugin.name,
        marketplace: "",
        ...(plugin.version ? { version: plugin.version } : {}),
        enabled: true,
      })),
    }),
    // A reload of the skills reads the plugins again (session-extensions.ts).
    "session.plugins.reload": (link, params) => {
      session(link, params).dispatch({ type: "reload_skills" });
      return {};
    },
    "session.extensions.list": (link, params) => {
      session(link, params);
      return { extensions: [] };
    },
    "session.extensions.enable": noExtensions,
    "session.extensions.disable": noExtensions,
    "session.extensions.reload": noExtensions,
  };
}
