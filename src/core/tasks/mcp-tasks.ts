/**
 * MCP tasks as background records (seed 004's MCP task bridge): a server's tool that requires task support
 * runs as a record of agentType "mcp-task" in the session's task registry, its prompt the call's arguments.
 * /tasks, list_agents and read_agent see it like a background agent; its status messages are its progress
 * (intent), its result is its answer, and the main agent is told when it ends. Cancelling the record aborts
 * the body, which cancels the task on the server.
 */
import type { McpTaskHost } from "../../mcp/index.js";
import type { Emit } from "../event-sink.js";
import type { SessionSubagents } from "./session-subagents.js";

export const MCP_TASK_AGENT_TYPE = "mcp-task";

export function mcpTaskHost(subagents: () => SessionSubagents, emit: Emit): McpTaskHost {
  return {
    start(task, body) {
      const host = subagents();
      const id = host.newAgentId(task.name);
      emit("subagent.started", {
        toolCallId: task.toolCallId,
        agentId: id,
        agentName: MCP_TASK_AGENT_TYPE,
        agentDisplayName: task.displayName,
        agentDescription: task.description,
        agentType: MCP_TASK_AGENT_TYPE,
        executionMode: "background",
      });
      return host.registry.start(
        {
          id,
          refusesMessages: `${id} is an MCP task: it takes no follow-up messages. Call ${task.name} again to start a new task.`,
          agentType: MCP_TASK_AGENT_TYPE,
          displayName: task.displayName,
          description: task.description,
          prompt: task.prompt,
          toolCallId: task.toolCallId,
        },
        (control) =>
          body({
            signal: control.signal,
            progress: (message) => control.progress({ intent: message }),
            respond: (text) => control.respond(text),
          }),
      );
    },
  };
}
