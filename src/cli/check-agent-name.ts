/** --agent's name, checked against the agent files before the session opens. */
import { loadAgentFiles } from "../config/agent-files.js";
import { resolveHomes } from "../config/agent-home.js";
import { selectableAgent, unknownAgentMessage } from "../core/agents/agent-catalog.js";
import { findGitRoot } from "../util/git-root.js";

/** Undefined when the name is an agent one may select; otherwise the message, listing the valid names. */
export function checkAgentName(name: string, cwd: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  // Problems with other files are the session's to report (as warnings); only the name matters here.
  const { agents } = loadAgentFiles({ ...resolveHomes(env), gitRoot: findGitRoot(cwd)?.root });
  // Custom agents first, as /agent lists them.
  const selectable = [...agents.filter((agent) => agent.source !== "builtin"), ...agents.filter((agent) => agent.source === "builtin")].filter(
    (agent) => agent.userInvocable,
  );
  return selectableAgent(agents, name) ? undefined : unknownAgentMessage(name, selectable);
}
