/**
 * session.tools.updateSubagentSettings: the set_subagent_settings command. Per agent type, the model and
 * reasoning effort (`effortLevel`) of the subagents started from then on, and the types the model may not
 * start (`disabledSubagents`); null clears them. `contextTier`, `maxConcurrency` and `maxDepth` are not taken
 * from here: the session's limits are settings.json's `subagents`. The context window by source and by
 * message are reads of the session (its /context breakdown, split further). secrets.addFilterValues registers
 * values with the session manager: no session of this server writes them to its log or tells them to a client.
 */
import { z } from "zod";
import type { SessionManager } from "../../core/index.js";
import type { SESSION_EXTRAS_METHODS } from "./session-extras-names.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";
import { sessionIdOf } from "../wire.js";

const entrySchema = z.looseObject({ model: z.string().optional(), effortLevel: z.string().optional() });
const secretsSchema = z.looseObject({ values: z.array(z.string()) });
const heaviestSchema = z.looseObject({ sessionId: z.string(), limit: z.number().int().min(0).optional() });
const settingsSchema = z.looseObject({
  sessionId: z.string(),
  subagents: z
    .looseObject({ agents: z.record(z.string(), entrySchema).optional(), disabledSubagents: z.array(z.string()).optional() })
    .nullable()
    .optional(),
});

export function sessionExtrasMethods(owned: Owned, manager: Pick<SessionManager, "addSecretValues">): MethodTable<(typeof SESSION_EXTRAS_METHODS)[number]> {
  return {
    "session.tools.updateSubagentSettings": (link, params) => {
      const { sessionId, subagents } = settingsSchema.parse(params);
      const agents = Object.fromEntries(
        Object.entries(subagents?.agents ?? {}).map(([name, entry]) => [
          name,
          { ...(entry.model ? { model: entry.model } : {}), ...(entry.effortLevel ? { reasoningEffort: entry.effortLevel } : {}) },
        ]),
      );
      const settings = subagents ? { agents, ...(subagents.disabledSubagents ? { disabled: subagents.disabledSubagents } : {}) } : null;
      const problem = ownedSession(owned, link, sessionId).dispatch({ type: "set_subagent_settings", settings });
      if (problem) throw new Error(problem);
      return {};
    },
    "session.metadata.getContextAttribution": (link, params) => ({
      contextAttribution: ownedSession(owned, link, sessionIdOf(params)).contextAttribution() ?? null,
    }),
    "session.metadata.getContextHeaviestMessages": (link, params) => {
      const { sessionId, limit } = heaviestSchema.parse(params);
      return ownedSession(owned, link, sessionId).heaviestMessages(limit);
    },
    "secrets.addFilterValues": (_link, params) => {
      manager.addSecretValues(secretsSchema.parse(params).values);
      return { ok: true };
    },
  };
}
