/** The agents the `task` tool can start, as the tool sees them (the catalog provides them). */
export interface AgentDefinition {
  name: string;
  displayName: string;
  description: string;
  /** The tools it may call (resolved names); undefined means all of the session's. */
  tools?: readonly string[];
  model?: string;
  systemPrompt: string;
  /** False hides it from the model (disable-model-invocation). */
  modelInvocable: boolean;
}

export interface AgentDirectory {
  list(): readonly AgentDefinition[];
  get(name: string): AgentDefinition | undefined;
}
