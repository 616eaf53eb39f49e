import type { SlashCommand } from "./types.js";

/**
 * `/agent` lists the agents one can run the session as; `/agent <name>` selects one (its prompt and its
 * tools for the main agent); `/agent none` goes back to the default agent.
 */
export const agentCommand: SlashCommand = {
  name: "agent",
  description: "Run this session as a custom agent, or list them",
  argsHint: "[name|none]",
  run: ({ session, args }) => {
    if (args === "" && session.interactive) return { kind: "dialog", dialog: "agent" };
    // Without a screen (agent -p, a client without the dialog), the list as a message.
    if (args === "") {
      const agents = session.agents.userInvocable();
      const custom = agents.filter((agent) => agent.source !== "builtin");
      const builtin = agents.filter((agent) => agent.source === "builtin");
      const line = (agent: (typeof agents)[number]) =>
        `  ${agent.name === session.agentName ? "●" : " "} ${agent.name} (${agent.source}): ${agent.description.replace(/\s+/g, " ")}`;
      const sections = [
        custom.length > 0
          ? `Custom agents:\n${custom.map(line).join("\n")}`
          : "No custom agents (add them in $AGENT_HOME/agents/ or .github/agents/ as <name>.agent.md).",
        builtin.length > 0 ? `Built-in agents:\n${builtin.map(line).join("\n")}` : undefined,
        session.agentName ? `Running as ${session.agentName}. /agent none goes back to the default agent.` : "Select one with /agent <name>.",
      ];
      return { kind: "message", text: sections.filter((section) => section !== undefined).join("\n\n") };
    }
    const name = args === "none" ? null : args;
    const error = session.dispatch({ type: "select_agent", name });
    if (error) return { kind: "message", level: "error", text: error };
    if (name === null) return { kind: "message", text: "Back to the default agent." };
    const tools = session.agents.get(name)?.tools;
    return {
      kind: "message",
      text: `Running as the ${name} agent${tools ? ` (tools: ${tools.join(", ")})` : ""}. /agent none goes back to the default agent.`,
    };
  },
};
