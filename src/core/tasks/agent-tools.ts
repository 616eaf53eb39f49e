/**
 * The main agent's tools for its background agents: read one's answer (waiting for it, up to a timeout),
 * send an idle one a follow-up, list them all, and cancel one.
 */
import { z } from "zod";
import { type AnyTool, defineTool, ToolError } from "../../tools/define-tool.js";
import { lazyParameters } from "../../tools/lazy-parameters.js";
import type { TaskRecord, TaskRegistry } from "./task-registry.js";

const elapsed = (record: TaskRecord) => `${Math.round(((record.endedAt ?? Date.now()) - record.startedAt) / 1000)} s`;

function summary(record: TaskRecord): string {
  return `${record.id} · ${record.agentType} · ${record.status} · ${elapsed(record)} · ${record.description}`;
}

function readout(record: TaskRecord): string {
  const lines = [`Agent ${summary(record)}`];
  if (record.error) lines.push(`Error: ${record.error}`);
  if (record.latestResponse !== undefined) lines.push(`Latest answer (turn ${record.turns.length}):`, record.latestResponse || "(empty)");
  else if (record.status === "running") lines.push("It has not answered yet.");
  if (record.status === "idle") lines.push("It waits for a follow-up: send one with write_agent, or leave it.");
  return lines.join("\n");
}

export const readAgentParameters = lazyParameters(() =>
  z.object({
    agent_id: z.string(),
    timeout_seconds: z.number().min(0).max(600).optional().describe("How long to wait for an answer (default 60)"),
  }),
);
export const writeAgentParameters = lazyParameters(() => z.object({ agent_id: z.string(), message: z.string() }));
export const listAgentsParameters = lazyParameters(() => z.object({}));

export function createAgentTools(registry: TaskRegistry): AnyTool[] {
  const known = (id: string): TaskRecord => {
    const record = registry.get(id);
    if (!record)
      throw new ToolError(
        `No agent with id ${id}. Agents: ${
          registry
            .list()
            .map((entry) => entry.id)
            .join(", ") || "none"
        }.`,
        "unknown_agent",
      );
    return record;
  };
  const readAgent = defineTool({
    name: "read_agent",
    description:
      "Read a background agent's latest answer. While it is still working this waits (up to timeout_seconds) for its next answer or its end, then returns what there is.",
    parameters: readAgentParameters,
    kind: "read",
    readOnly: true,
    polls: true,
    title: (args) => `read_agent ${args.agent_id}`,
    permission: () => null,
    async execute(args, ctx) {
      const before = known(args.agent_id);
      const record = await registry.waitFor(before.id, { afterTurns: before.turns.length, timeoutMs: (args.timeout_seconds ?? 60) * 1000, signal: ctx.signal });
      return { content: readout(record ?? before) };
    },
  });
  const writeAgent = defineTool({
    name: "write_agent",
    description: "Send a follow-up message to a background agent that has answered and waits (idle); it wakes and works on it.",
    parameters: writeAgentParameters,
    kind: "control",
    readOnly: false,
    title: (args) => `write_agent ${args.agent_id}`,
    permission: () => null,
    async execute(args) {
      known(args.agent_id);
      const refused = registry.sendMessage(args.agent_id, args.message);
      if (refused) throw new ToolError(refused, "agent_unavailable");
      return { content: `Sent to ${args.agent_id}; you are notified when it answers.` };
    },
  });
  const listAgents = defineTool({
    name: "list_agents",
    description: "List the background agents of this session with their status.",
    parameters: listAgentsParameters,
    kind: "read",
    readOnly: true,
    permission: () => null,
    async execute() {
      const records = registry.list();
      return { content: records.length === 0 ? "No background agents." : records.map(summary).join("\n") };
    },
  });
  return [readAgent, writeAgent, listAgents] as unknown as AnyTool[];
}
