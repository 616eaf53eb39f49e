/**
 * The `task` tool: the main agent delegates to a subagent of a given type. Sync (the default) runs the agent
 * to its end inside the call and returns its answer; background starts it in the task registry and returns
 * at once, the result arriving as a notification. Only the main agent starts background agents; a
 * subagent's request for one runs sync.
 */
import { z } from "zod";
import { defineTool, ToolError, type AnyTool, type ToolContext } from "../../tools/define-tool.js";
import { lazyParameters } from "../../tools/lazy-parameters.js";
import type { Emit } from "../event-sink.js";
import { describeAgentTypes } from "../agents/agent-catalog.js";
import { precomputedToolSchema } from "../precomputed-tool-schemas.js";
import type { AgentDefinition } from "./agent-directory.js";
import type { SubagentHost } from "./subagent-host.js";
import { runSync, startInBackground } from "./task-run.js";

export const taskParameters = lazyParameters(() =>
  z.object({
    description: z.string().describe("A short (3-5 word) description of the task, shown to the user"),
    prompt: z.string().describe("The full instructions for the agent: everything it needs to know, as it sees none of this conversation"),
    agent_type: z.string().describe("Which agent runs it (see the list in this tool's description)"),
    name: z.string().optional().describe("A short name for the agent, used for its id (e.g. 'auth-tests')"),
    model: z.string().optional().describe("Another model for this agent (must be one the endpoint offers)"),
    mode: z
      .enum(["sync", "background"])
      .optional()
      .describe("sync (default): wait for the result. background: start it and go on; you are notified when it is done"),
  }),
);

let baseSchema: (Record<string, unknown> & { properties: Record<string, object> }) | undefined;

/** The parameters' JSON Schema with agent_type limited to these names (with no names, a plain string: the call then fails with the list). */
function withAgentTypes(names: readonly string[]): Record<string, unknown> {
  // "task" is taskParameters in builtinParameters(), so the build's conversion is this one.
  baseSchema ??= (precomputedToolSchema("task") ?? z.toJSONSchema(taskParameters, { io: "input" })) as Record<string, unknown> & {
    properties: Record<string, object>;
  };
  const schema = baseSchema;
  if (names.length === 0) return schema;
  return { ...schema, properties: { ...schema.properties, agent_type: { ...schema.properties.agent_type, enum: [...names] } } };
}

function describeAgents(agents: readonly AgentDefinition[]): string {
  return describeAgentTypes(agents);
}

function taskDescription(agents: readonly AgentDefinition[]): string {
  return [
    "Start a subagent to do a task: it works in its own context with its own tools and returns its result.",
    "Use it for self-contained work (searching a large codebase, running and fixing tests, a review, research) so your own context stays small. Give it a complete prompt: it sees none of this conversation.",
    "mode 'sync' (default) waits for the result. mode 'background' runs it in parallel and returns at once: you are notified when it finishes and read the result with read_agent; do not start a background agent only to wait for it at once (use sync).",
    "",
    describeAgents(agents),
  ].join("\n");
}

export { resultFooter } from "./task-run.js";

/** The task tool of an agent at `depth` (0: the main agent), emitting its subagent events as that agent. */
export function createTaskTool(host: SubagentHost, depth: number, emit: Emit): AnyTool {
  // An agent type a client turned off (its subagent settings) is not offered.
  const visible = () =>
    host
      .agents()
      .modelInvocable()
      .filter((agent) => host.agentSettings?.(agent.name).disabled !== true);
  return defineTool({
    name: "task",
    get description() {
      return taskDescription(visible());
    },
    parameters: taskParameters,
    // agent_type names its choices as an enum (Copilot's schema), so the model cannot invent an agent.
    get inputSchema() {
      return withAgentTypes(visible().map((agent) => agent.name));
    },
    kind: "control",
    readOnly: false,
    runsInParallel: true,
    title: (args) => args.description,
    permission: () => null,
    async execute(args, ctx: ToolContext) {
      const found = host.agents().get(args.agent_type);
      const settings = found ? host.agentSettings?.(found.name) : undefined;
      const agent = settings?.disabled ? undefined : found;
      // A hidden agent (the rem-agent) starts only when a command allowed it, once: the model cannot pick it on its own.
      if (!agent || !(agent.modelInvocable || (depth === 0 && host.takeAllowance?.(agent.name)))) {
        throw new ToolError(`Unknown agent_type "${args.agent_type}". Valid agent types:\n${describeAgents(visible())}`, "unknown_agent_type");
      }
      if (depth + 1 > host.limits.maxDepth) {
        throw new ToolError(
          `Subagents may nest at most ${host.limits.maxDepth} deep; this agent is at depth ${depth}. Do the task yourself instead.`,
          "max_depth",
        );
      }
      const model = args.model ?? settings?.model ?? agent.model;
      if (args.model !== undefined) {
        const available = await host.availableModels(ctx.signal);
        if (available && !available.includes(args.model)) {
          throw new ToolError(`The model "${args.model}" is not offered by the endpoint. Available models: ${available.join(", ")}.`, "unknown_model");
        }
      }
      const spent = host.ledger.spent();
      if (spent) throw new ToolError(`No more subagents in this session: ${spent}. Do the task yourself instead.`, "budget_spent");
      const background = args.mode === "background" && depth === 0;
      const agentId = host.newAgentId(args.name ?? agent.name);
      const { limits } = host;
      const budget = {
        maxTurns: limits.maxTurns,
        ...(limits.maxTokens !== undefined ? { maxTokens: limits.maxTokens } : {}),
        ...(limits.maxDurationMs !== undefined ? { maxDurationMs: limits.maxDurationMs } : {}),
      };
      const started = { agentId, agentDescription: args.description, model: model ?? host.sessionModel(), budget };
      emit("subagent.started", {
        toolCallId: ctx.toolCallId,
        agentName: agent.name,
        agentDisplayName: agent.displayName,
        ...started,
        agentType: agent.name,
        executionMode: background ? "background" : "sync",
      });
      const spec = {
        agentId,
        agentName: agent.name,
        agentDisplayName: agent.displayName,
        agentDescription: args.description,
        parentToolCallId: ctx.toolCallId,
        systemPrompt: agent.systemPrompt,
        prompt: args.prompt,
        ...(agent.tools ? { toolNames: agent.tools } : {}),
        ...(agent.mcpServers ? { mcpServers: agent.mcpServers } : {}),
        ...(agent.skills ? { skills: agent.skills } : {}),
        ...(model ? { model } : {}),
        ...(settings?.reasoningEffort ? { reasoningEffort: settings.reasoningEffort } : {}),
        ...budget,
        ledger: host.ledger,
      };
      const run = { host, agent, spec, description: args.description, model, depth, emit, started };
      return background ? startInBackground(run, ctx) : runSync(run, ctx);
    },
  }) as unknown as AnyTool;
}
