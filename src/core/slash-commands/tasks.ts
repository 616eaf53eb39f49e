import { describeAgent } from "../tasks/agent-transcripts.js";
import type { SlashCommand } from "./types.js";

const elapsed = (from: number, to?: number) => `${Math.round(((to ?? Date.now()) - from) / 1000)} s`;

/**
 * `/tasks`: the background agents and shells, and what can be done with an agent: view its latest answer,
 * send it a follow-up, cancel it.
 */
export const tasksCommand: SlashCommand = {
  name: "tasks",
  description: "List background agents and shells; view, message or cancel an agent",
  argsHint: "[view|send|cancel <id> [message]]",
  run: ({ session, args }) => {
    const [verb = "", id = "", ...rest] = args.split(/\s+/).filter((part) => part !== "");
    const records = session.agentRecords;
    // With a screen, the list is a dialog (pick one to view, message or cancel); without one, a message.
    if (verb === "" && session.interactive) return { kind: "dialog", dialog: "tasks" };
    if (verb === "") {
      const agents = records.map(
        (record) =>
          `  ${record.id}  ${record.status.padEnd(9)} ${elapsed(record.startedAt, record.endedAt).padStart(6)}  ${record.agentType}: ${record.description}`,
      );
      const shells = session.backgroundShells.map((shell) => `  shell ${shell.shellId}  running  ${shell.description ?? ""}`);
      if (agents.length + shells.length === 0) return { kind: "message", text: "No background agents or shells." };
      return {
        kind: "message",
        text: [...(agents.length > 0 ? ["Agents:", ...agents] : []), ...(shells.length > 0 ? ["Shells:", ...shells] : []), "/tasks view|send|cancel <id>"].join(
          "\n",
        ),
      };
    }
    const record = records.find((candidate) => candidate.id === id);
    // `cancel` takes a background shell's id too.
    if (!record && verb === "cancel" && session.backgroundShells.some((shell) => shell.shellId === id)) {
      return session
        .dispatch({ type: "stop_shell", shellId: id })
        .then((stopped) =>
          stopped ? { kind: "message", text: `Stopped shell ${id}.` } : { kind: "message", level: "warning", text: `Shell ${id} is not running.` },
        );
    }
    if (!record) return { kind: "message", level: "error", text: `No agent ${id || "given"}. Usage: /tasks [view|send|cancel <id> [message]]` };
    switch (verb) {
      case "view":
        return { kind: "message", text: describeAgent(record) };
      case "send": {
        const message = rest.join(" ");
        if (message === "") return { kind: "message", level: "error", text: "Usage: /tasks send <id> <message>" };
        const refused = session.dispatch({ type: "message_agent", agentId: id, message });
        return refused ? { kind: "message", level: "error", text: refused } : { kind: "message", text: `Sent to ${id}.` };
      }
      case "cancel": {
        // An idle agent has answered already: stopping it ends its wait for follow-ups, its answer stands.
        const said = record.status === "idle" ? `Stopped ${id}; its answer stands.` : `Cancelled ${id}.`;
        return session.dispatch({ type: "cancel_agent", agentId: id })
          ? { kind: "message", text: said }
          : { kind: "message", level: "warning", text: `${id} is not running.` };
      }
      default:
        return { kind: "message", level: "error", text: "Usage: /tasks [view|send|cancel <id> [message]]" };
    }
  },
};
