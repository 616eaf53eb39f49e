/**
 * Reads of a session's state (the core's fold, SessionView.state) and the commands that change it, as the
 * SDK names them. Copilot's cloud features (visibility sync, telemetry engagement, host completions) have no
 * counterpart here: they answer as Copilot does for a local session that has none.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { z } from "zod";
import type { SessionView } from "../../core/index.js";
import { workingDirectoryContextSchema } from "../../protocol/events/shared-schemas.js";
import type { ClientLink, ServedSession } from "../served-session.js";
import { sessionIdOf } from "../wire.js";
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

/** A todo as a row of the `todos` table (its dependencies are todo_deps rows). */
const sqlRow = (todo: SessionView["state"]["todosAsWritten"][number]) => ({
  id: todo.id,
  title: todo.title,
  description: todo.description,
  status: todo.status,
});

function refuse(problem: string | undefined): void {
  if (problem) throw new Error(problem);
}

const cwdSchema = z.looseObject({ sessionId: z.string(), workingDirectory: z.string() });
const contextSchema = z.looseObject({ sessionId: z.string(), context: workingDirectoryContextSchema });
const shutdownSchema = z.looseObject({ sessionId: z.string(), type: z.enum(["routine", "error"]).optional(), reason: z.string().optional() });

/** This process's usage of the session, as Copilot's usage.getMetrics reports it (no AI-unit pricing here). */
function usageMetrics(state: SessionView["state"]) {
  const { current } = state.usage;
  const modelMetrics = Object.fromEntries(
    Object.entries(current.modelMetrics).map(([model, metric]) => [
      model,
      {
        requests: metric.requests,
        usage: {
          inputTokens: metric.usage.inputTokens,
          outputTokens: metric.usage.outputTokens,
          cacheReadTokens: metric.usage.cacheReadTokens ?? 0,
          cacheWriteTokens: 0,
        },
      },
    ]),
  );
  return {
    totalPremiumRequestCost: 0,
    totalUserRequests: current.requests,
    totalApiDurationMs: current.apiDurationMs,
    sessionStartTime: new Date(current.startTime).toISOString(),
    codeChanges: {
      linesAdded: current.codeChanges.linesAdded,
      linesRemoved: current.codeChanges.linesRemoved,
      filesModifiedCount: current.codeChanges.filesModified.length,
    },
    modelMetrics,
    ...(state.model ? { currentModel: state.model } : {}),
    lastCallInputTokens: 0,
    lastCallOutputTokens: 0,
  };
}

/** The custom instruction files in the session's prompt, as instruction sources (the user's own, or the repository's). */
function instructionSources(session: SessionView) {
  const home = homedir();
  return session.instructionPaths.map((file) => {
    const mine = file.startsWith(home + path.sep) && !file.startsWith(session.state.cwd + path.sep);
    let content = "";
    try {
      content = readFileSync(file, "utf8");
    } catch {
      // Removed since it was loaded: the source is still listed, as the prompt still holds it.
    }
    return { id: file, label: path.basename(file), sourcePath: file, content, type: mine ? "home" : "repo", location: mine ? "user" : "repository" };
  });
}

export function sessionStateMethods(
  owned: Owned,
  close: (sessionId: string, errorReason?: string) => Promise<void>,
): MethodTable<(typeof SESSION_STATE_METHODS)[number]> {
  const view = (link: ClientLink, params: unknown) => ownedSession(owned, link, sessionIdOf(params));
  const served = (link: ClientLink, params: unknown) => owned(link, sessionIdOf(params));
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
    "session.plan.readSqlTodos": (link, params) => ({ rows: view(link, params).state.todosAsWritten.map(sqlRow) }),
    "session.plan.readSqlTodosWithDependencies": (link, params) => {
      const todos = view(link, params).state.todosAsWritten;
      return { rows: todos.map(sqlRow), dependencies: todos.flatMap((todo) => todo.dependsOn.map((dependsOn) => ({ todoId: todo.id, dependsOn }))) };
    },
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
    "session.metadata.snapshot": (link, params) => {
      const host = served(link, params);
      const session = view(link, params);
      const { state } = session;
      const startTime = new Date(state.usage.current.startTime).toISOString();
      return {
        sessionId: session.id,
        startTime,
        modifiedTime: host.journal.lastTimestamp() ?? startTime,
        isRemote: false,
        alreadyInUse: false,
        workspacePath: session.dir,
        ...(state.name ? { summary: state.name } : {}),
        workingDirectory: state.cwd,
        currentMode: state.mode,
        ...(state.model ? { selectedModel: state.model } : {}),
        sessionLimits: state.sessionLimits,
        workspace: {
          id: session.id,
          cwd: state.cwd,
          ...(state.context?.gitRoot ? { git_root: state.context.gitRoot } : {}),
          ...(state.context?.branch ? { branch: state.context.branch } : {}),
        },
      };
    },
    "session.metadata.setWorkingDirectory": (link, params) => {
      const { workingDirectory } = cwdSchema.parse(params);
      const session = view(link, params);
      refuse(session.dispatch({ type: "set_cwd", path: workingDirectory }));
      return { workingDirectory: session.state.cwd };
    },
    "session.metadata.recordContextChange": (link, params) => {
      const { context } = contextSchema.parse(params);
      view(link, params).dispatch({ type: "record_context", context });
      return {};
    },
    "session.tools.getCurrentMetadata": (link, params) => ({
      tools: view(link, params)
        .currentTools()
        .map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters })),
    }),
    // The tools are built with the session (nothing to validate later); no language server runs here; telemetry
    // feature overrides have nothing to override. Each answers as Copilot does once it has nothing left to do.
    "session.tools.initializeAndValidate": (link, params) => (view(link, params), {}),
    "session.lsp.initialize": (link, params) => (view(link, params), null),
    "session.telemetry.setFeatureOverrides": (link, params) => (view(link, params), null),
    "session.metadata.isProcessing": (link, params) => ({ processing: view(link, params).state.busy }),
    "session.usage.getMetrics": (link, params) => usageMetrics(view(link, params).state),
    "session.permissions.resetSessionApprovals": (link, params) => {
      view(link, params).dispatch({ type: "reset_allowed_tools" });
      return { success: true };
    },
    "session.instructions.getSources": (link, params) => ({ sources: instructionSources(view(link, params)) }),
    // Ends the session as a close does (it stays resumable); the clients get its session.shutdown first.
    // The engine's shutdown takes a reason only for an error ending: a routine one has none.
    "session.shutdown": async (link, params) => {
      const { sessionId, type, reason } = shutdownSchema.parse(params);
      view(link, params);
      await close(sessionId, type === "error" ? (reason ?? "The client ended the session.") : undefined);
      return {};
    },
  };
}
