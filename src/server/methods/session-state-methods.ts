/**
 * Reads of a session's state (the core's fold, SessionView.state) and the commands that change it, as the
 * SDK names them. Copilot's cloud features (visibility sync, telemetry engagement, host completions) have no
 * counterpart here: they answer as Copilot does for a local session that has none.
 */
import { z } from "zod";
import type { ClientLink, ServedSession } from "../served-session.js";
import { sessionIdSchema } from "../wire.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";
import type { SESSION_STATE_METHODS } from "./session-state-names.js";

const nameSchema = z.looseObject({ sessionId: z.string(), name: z.string() });
const autoNameSchema = z.looseObject({ sessionId: z.string(), summary: z.string() });
const permissionModeSchema = z.looseObject({ sessionId: z.string(), mode: z.enum(["manual", "allow-all"]) });
const readSchema = z.looseObject({
  sessionId: z.string(),
  cursor: z.string().optional(),
  max: z.number().int().positive().optional(),
  waitMs: z.number().nonnegative().optional(),
  types: z.array(z.string()).optional(),
});

/** The name each served session last took from name.setAuto: a later summary may replace it, a person's name not. */
const autoNames = new WeakMap<ServedSession, string>();

function refuse(problem: string | undefined): void {
  if (problem) throw new Error(problem);
}

export function sessionStateMethods(owned: Owned): MethodTable<(typeof SESSION_STATE_METHODS)[number]> {
  const view = (link: ClientLink, params: unknown) => ownedSession(owned, link, sessionIdSchema.parse(params).sessionId);
  const served = (link: ClientLink, params: unknown) => owned(link, sessionIdSchema.parse(params).sessionId);
  const permissionMode = (link: ClientLink, params: unknown) => (view(link, params).state.permissions.allowAll ? "allow-all" : "manual");
  return {
    "session.name.get": (link, params) => ({ name: view(link, params).state.name ?? null }),
    "session.name.set": (link, params) => {
      const { name } = nameSchema.parse(params);
      refuse(view(link, params).dispatch({ type: "rename", name }));
      autoNames.delete(served(link, params));
      return {};
    },
    "session.name.setAuto": (link, params) => {
      const summary = autoNameSchema.parse(params).summary.replace(/\s+/g, " ").trim();
      const session = view(link, params);
      const host = served(link, params);
      const current = session.state.name;
      if (summary === "" || (current !== undefined && current !== autoNames.get(host))) return { applied: false };
      if (session.dispatch({ type: "rename", name: summary })) return { applied: false };
      autoNames.set(host, summary);
      return { applied: true };
    },
    "session.metadata.activity": (link, params) => {
      const busy = view(link, params).state.busy;
      return { hasActiveWork: busy, abortable: busy };
    },
    "session.permissions.getMode": (link, params) => ({ mode: permissionMode(link, params) }),
    "session.permissions.setMode": (link, params) => {
      const { mode } = permissionModeSchema.parse(params);
      view(link, params).dispatch({ type: "set_allow_all", on: mode === "allow-all" });
      return { success: true, mode: permissionMode(link, params) };
    },
    "session.queue.pendingItems": (link, params) => {
      const { queue, mode } = view(link, params).state;
      const items = queue.items.map((item) => ({
        id: item.id,
        kind: item.prompt.startsWith("/") ? "command" : "message",
        displayText: item.prompt,
        agentMode: mode,
      }));
      return { items, steeringMessages: [] };
    },
    "session.queue.removeMostRecent": (link, params) => {
      const session = view(link, params);
      const last = session.state.queue.items.at(-1);
      return { removed: last !== undefined && session.dispatch({ type: "unqueue", id: last.id }) !== undefined };
    },
    "session.queue.clear": (link, params) => {
      const session = view(link, params);
      for (const item of session.state.queue.items) session.dispatch({ type: "unqueue", id: item.id });
      return {};
    },
    "session.plan.readSqlTodos": (link, params) => ({
      rows: view(link, params).state.todosAsWritten.map((todo) => ({ ...todo })),
    }),
    "session.visibility.get": (link, params) => (view(link, params), { synced: false }),
    "session.visibility.set": (link, params) => (view(link, params), { synced: false }),
    "session.completions.getTriggerCharacters": (link, params) => (view(link, params), { triggerCharacters: [] }),
    "session.completions.request": (link, params) => (view(link, params), { items: [] }),
    "session.telemetry.getEngagementId": (link, params) => (view(link, params), {}),
    "session.eventLog.tail": (link, params) => ({ cursor: served(link, params).journal.tail() }),
    "session.eventLog.read": (link, params) => {
      const { sessionId: _id, ...options } = readSchema.parse(params);
      return served(link, params).journal.read(options);
    },
  };
}
