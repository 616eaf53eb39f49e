import { z } from "zod";
import { ephemeral, persisted } from "./define-event.js";
import {
  agentModeSchema,
  attachmentSchema,
  backgroundTasksSchema,
  codeChangesSchema,
  sessionLimitsSchema,
  workingDirectoryContextSchema,
} from "./shared-schemas.js";

const compactionTriggerSchema = z.enum(["threshold", "context_limit_retry", "manual"]);

const modelMetricSchema = z.object({
  requests: z.object({ count: z.number(), cost: z.number() }),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number(), cacheReadTokens: z.number().optional() }),
});

const todoItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(["pending", "in_progress", "done", "blocked"]),
  dependsOn: z.array(z.string()),
  agentId: z.string().optional(),
});

/** Copilot's MCP server states; a server still starting is "pending". */
const mcpServerStatusSchema = z.enum(["connected", "failed", "needs-auth", "pending", "disabled", "stopped", "not_configured"]);

/** session.*: lifecycle of the whole session. */
export const sessionEvents = {
  "session.start": persisted(
    z.object({
      sessionId: z.string(),
      version: z.number(),
      producer: z.string(),
      copilotVersion: z.string(),
      startTime: z.string(),
      selectedModel: z.string().optional(),
      reasoningEffort: z.string().optional(),
      mode: agentModeSchema.optional(),
      name: z.string().optional(),
      context: workingDirectoryContextSchema.optional(),
      /**
       * A fork: the session whose log this one's copies, and the event the copy stops before (absent: all of
       * it). The copied events keep their ids; only this first event is new.
       */
      forkedFrom: z.object({ sessionId: z.string(), upToEventId: z.string().optional() }).optional(),
      /** The interactive session that started this one detached as it ended (the memory consolidation run). */
      detachedFromSpawningParentSessionId: z.string().optional(),
      /** The limits it starts with (an SDK app's sessionLimits). */
      sessionLimits: sessionLimitsSchema.optional(),
    }),
  ),
  "session.resume": persisted(
    z.object({
      resumeTime: z.string(),
      eventCount: z.number(),
      eventsFileSizeBytes: z.number().optional(),
      selectedModel: z.string().optional(),
      reasoningEffort: z.string().optional(),
      context: workingDirectoryContextSchema.optional(),
      /**
       * The resume joined live work (a turn running, or waiting on a client) and did not abandon it. False on a
       * cold resume, and when the resuming client left the work of a client that went away unfinished.
       */
      sessionWasActive: z.boolean().optional(),
      /**
       * Whether another client held the session. Present only when a client joined the session while it was open
       * in this process (join_client): such a resume is no new process, so the folds keep the process's usage.
       */
      alreadyInUse: z.boolean().optional(),
      /** The resuming client continues the work left waiting (the SDK's continuePendingWork). */
      continuePendingWork: z.boolean().optional(),
      /** Lines of events.jsonl that could not be read and were skipped. */
      skippedLines: z.number().optional(),
      /** Tool calls that had no result and were closed with a synthetic error result. */
      repairedToolCalls: z.number().optional(),
    }),
  ),
  "session.idle": ephemeral(
    z.object({
      backgroundTasks: backgroundTasksSchema.optional(),
      aborted: z.boolean().optional(),
      mode: agentModeSchema.optional(),
    }),
  ),
  "session.error": persisted(
    z.object({
      errorType: z.string(),
      message: z.string(),
      stack: z.string().optional(),
      statusCode: z.number().optional(),
      providerCallId: z.string().optional(),
    }),
  ),
  "session.info": persisted(z.object({ infoType: z.string(), message: z.string() })),
  "session.warning": persisted(z.object({ warningType: z.string(), message: z.string() })),
  /** Compaction began: why, and how full the context was (seed 002 leaves it empty; the SDK names these fields). */
  "session.compaction_start": persisted(
    z.object({
      trigger: compactionTriggerSchema.optional(),
      model: z.string().optional(),
      currentTokens: z.number().optional(),
      tokenLimit: z.number().optional(),
      systemTokens: z.number().optional(),
      conversationTokens: z.number().optional(),
      toolDefinitionsTokens: z.number().optional(),
    }),
  ),
  /**
   * Compaction ended. On success the conversation's first `messagesRemoved` messages are replaced by
   * `summaryContent` (the fold in core/conversation.ts does it, live and on resume); on failure nothing changes.
   */
  "session.compaction_complete": persisted(
    z.object({
      success: z.boolean(),
      trigger: compactionTriggerSchema.optional(),
      /** The focus given to /compact. */
      customInstructions: z.string().optional(),
      tokenLimit: z.number().optional(),
      compactionTokensUsed: z
        .object({ inputTokens: z.number().optional(), outputTokens: z.number().optional(), duration: z.number().optional(), model: z.string().optional() })
        .optional(),
      error: z.string().optional(),
      preCompactionTokens: z.number().optional(),
      postCompactionTokens: z.number().optional(),
      preCompactionMessagesLength: z.number().optional(),
      messagesRemoved: z.number().optional(),
      tokensRemoved: z.number().optional(),
      summaryContent: z.string().optional(),
      checkpointNumber: z.number().optional(),
      checkpointPath: z.string().optional(),
    }),
  ),
  /**
   * A rewind (Copilot's name; persisted here, where Copilot truncates the log): the conversation goes back to
   * just before `upToEventId` (the fold hides what came after from the model, the log keeps it) unless the
   * scope is files only, and the files the agent changed since are restored. Itself a point to go back to.
   */
  "session.snapshot_rewind": persisted(
    z.object({
      upToEventId: z.string(),
      eventsRemoved: z.number(),
      scope: z.enum(["conversation-and-files", "conversation", "files"]).optional(),
      restoredFiles: z.array(z.string()).optional(),
      skippedFiles: z.array(z.object({ path: z.string(), reason: z.enum(["changed-since", "error"]), message: z.string().optional() })).optional(),
      /** Why files could not all be restored (shell commands whose writes are not known). */
      incomplete: z.array(z.string()).optional(),
    }),
  ),
  "session.title_changed": ephemeral(z.object({ title: z.string() })),
  /** The plan file (plan.md in the session folder) was written or removed through the write_plan command. */
  "session.plan_changed": persisted(z.object({ operation: z.enum(["create", "update", "delete"]) })),
  /** A file of the session folder's files/ was created or replaced (path relative to files/). */
  "session.workspace_file_changed": ephemeral(z.object({ path: z.string(), operation: z.enum(["create", "update"]) })),
  "session.context_changed": persisted(workingDirectoryContextSchema),
  "session.usage_info": ephemeral(
    z.object({
      tokenLimit: z.number(),
      currentTokens: z.number(),
      messagesLength: z.number(),
      systemTokens: z.number().optional(),
      conversationTokens: z.number().optional(),
      toolDefinitionsTokens: z.number().optional(),
      /** The part of toolDefinitionsTokens that is MCP servers' tools (for /context). */
      mcpToolsTokens: z.number().optional(),
      /** Memory's context board, a part of the system prompt counted apart from systemTokens (for /context). */
      contextBoardTokens: z.number().optional(),
    }),
  ),
  "session.task_complete": persisted(z.object({ summary: z.string().optional(), success: z.boolean().optional() })),
  "session.mode_changed": persisted(z.object({ previousMode: agentModeSchema, newMode: agentModeSchema })),
  /** The session's limits were set or changed; null: they were cleared. */
  "session.session_limits_changed": persisted(z.object({ sessionLimits: sessionLimitsSchema.nullable() })),
  /** Autopilot's objective (/autopilot <objective>) was set, or cleared (no objective) when autopilot ended. */
  "session.objective_changed": persisted(z.object({ objective: z.string().optional() })),
  "session.model_change": persisted(
    z.object({
      previousModel: z.string().optional(),
      newModel: z.string(),
      previousReasoningEffort: z.string().optional(),
      reasoningEffort: z.string().optional(),
      source: z.string().optional(),
    }),
  ),
  /** Autopilot stopped without task_complete: the continuation limit, or an error it cannot work past. */
  "session.autopilot_stopped": persisted(z.object({ reason: z.enum(["max_continues", "error", "aborted"]), continuations: z.number(), message: z.string() })),
  "session.background_tasks_changed": ephemeral(
    z.object({
      /** The background agents still running or waiting (idle), by the task call that started them. */
      agents: z.array(z.object({ toolCallId: z.string(), agentId: z.string(), status: z.enum(["running", "idle"]) })).optional(),
      /** The shells still running whose call has returned, when they changed (absent: unchanged). */
      shells: backgroundTasksSchema.shape.shells.optional(),
    }),
  ),
  /**
   * The session's todo list (the sql tool's todos/todo_deps) changed. Copilot's data is empty; ours carries the
   * whole list (beside Copilot's fields), each todo with the background agent working on it when known.
   */
  "session.todos_changed": ephemeral(z.object({ todos: z.array(todoItemSchema).optional() })),
  /** The session's MCP servers as configured (at start and after /mcp reload), each with its state. */
  "session.mcp_servers_loaded": ephemeral(
    z.object({
      servers: z.array(
        z.object({
          name: z.string(),
          status: mcpServerStatusSchema,
          source: z.string().optional(),
          error: z.string().optional(),
          transport: z.string().optional(),
        }),
      ),
    }),
  ),
  /** A prompt waits for MCP servers to start before it goes to the model: the session is busy until its run ends. */
  "session.mcp_wait_started": ephemeral(z.object({})),
  /** One MCP server's state changed (it connected, failed, was disabled or started again). */
  "session.mcp_server_status_changed": ephemeral(z.object({ serverName: z.string(), status: mcpServerStatusSchema, error: z.string().optional() })),
  /**
   * What this process has used so far, after each model call and code change: what session.shutdown will
   * record (Copilot's checkpoint; its AI-unit totals are 0 here, as totalPremiumRequests is in the shutdown).
   */
  "session.usage_checkpoint": ephemeral(
    z.object({
      totalNanoAiu: z.number(),
      totalPremiumRequests: z.number().optional(),
      /** Requests sent, retries and failed ones included. */
      requests: z.number().optional(),
      /** Model calls that got a whole response. */
      completedCalls: z.number().optional(),
      totalApiDurationMs: z.number().optional(),
      modelMetrics: z.record(z.string(), modelMetricSchema).optional(),
      codeChanges: codeChangesSchema.optional(),
    }),
  ),
  /** Allow-all switched on or off (flags, environment, settings or /allow-all); never restored on resume. */
  "session.permissions_changed": ephemeral(
    z.object({
      previousMode: z.enum(["manual", "allow-all"]).optional(),
      mode: z.enum(["manual", "allow-all"]),
      /** What approves calls without asking now, with its sources (flags, environment, settings, /allow-all). */
      summary: z.object({ tools: z.array(z.string()), paths: z.array(z.string()), urls: z.array(z.string()), broadRules: z.array(z.string()) }).optional(),
      /** The directories tools may use without asking, when they changed (/add-dir, /cwd). */
      directories: z.array(z.string()).optional(),
    }),
  ),
  /** /instructions switched a custom instruction file off or on for this session. */
  "session.instructions_changed": ephemeral(z.object({ path: z.string(), enabled: z.boolean(), active: z.array(z.string()) })),
  /** The session's skills were read (first use, /skills reload) or one was enabled or disabled: every skill with its state. */
  "session.skills_loaded": ephemeral(
    z.object({
      skills: z.array(
        z.object({
          name: z.string(),
          description: z.string(),
          source: z.string(),
          userInvocable: z.boolean(),
          enabled: z.boolean(),
          path: z.string().optional(),
          argumentHint: z.string().optional(),
          pluginName: z.string().optional(),
        }),
      ),
    }),
  ),
  /** The prompt queue changed: what waits to be sent, in order. Paused after an interrupt until flushed. */
  "pending_messages.modified": ephemeral(
    z.object({
      items: z.array(z.object({ id: z.string(), prompt: z.string(), attachments: z.array(attachmentSchema).optional() })).optional(),
      paused: z.boolean().optional(),
    }),
  ),
  "session.shutdown": persisted(
    z.object({
      shutdownType: z.enum(["routine", "error"]),
      errorReason: z.string().optional(),
      totalPremiumRequests: z.number(),
      totalApiDurationMs: z.number(),
      sessionStartTime: z.number(),
      codeChanges: codeChangesSchema,
      modelMetrics: z.record(z.string(), modelMetricSchema),
      currentModel: z.string().optional(),
      currentTokens: z.number().optional(),
      /** Model calls of this process that got a whole response (beside Copilot's fields). */
      completedCalls: z.number().optional(),
    }),
  ),
} as const;
