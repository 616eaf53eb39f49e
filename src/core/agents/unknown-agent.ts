/** What an unknown agent name is told (/agent, --agent): the names one may use instead. Light: --agent checks it before the engine loads. */
export function unknownAgentMessage(name: string, valid: readonly { name: string }[]): string {
  const names = valid.map((agent) => agent.name);
  return `Unknown agent "${name}". ${names.length > 0 ? `Available agents: ${names.join(", ")}.` : "No agents are available."}`;
}
