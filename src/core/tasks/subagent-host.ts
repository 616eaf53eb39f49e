/**
 * What the `task` tool and the agent tools need of the session: the agent catalog, the limits, the task
 * registry, a way to make a child agent at a given depth, and a way to tell the main agent something.
 */
import type { ReasoningEffort } from "../../provider/provider-config.js";
import type { EventData } from "../../protocol/events/index.js";
import type { ChildAgent, ChildAgentSpec } from "../child-agent.js";
import type { AgentDirectory } from "./agent-directory.js";
import type { BudgetLedger } from "./budget.js";
import type { TaskRegistry } from "./task-registry.js";

export interface SubagentLimits {
  /** Nesting allowed below the main agent (a subagent's subagent is depth 2). */
  maxDepth: number;
  /** The main agent's agents running at once, background and sync together (deeper sync agents use their parent's slot). */
  maxConcurrent: number;
  /** Model calls a subagent may make per prompt. */
  maxTurns: number;
  /** Tokens one subagent may use over its life (none when absent). */
  maxTokens?: number;
  /** Working time one subagent may take, in ms (none when absent). */
  maxDurationMs?: number;
  /** Model calls all subagents of the session may make together. */
  sessionMaxTurns?: number;
  /** Tokens all subagents of the session may use together. */
  sessionMaxTokens?: number;
}

export interface SubagentHost {
  agents(): AgentDirectory;
  limits: SubagentLimits;
  registry: TaskRegistry;
  /** What the session's subagents have used together, against the session's budget. */
  ledger: BudgetLedger;
  /** The models the endpoint lists (undefined when it cannot list them). */
  availableModels(signal: AbortSignal): Promise<string[] | undefined>;
  sessionModel(): string;
  /** A child agent whose own tools are those of an agent at `depth`. */
  newChild(spec: ChildAgentSpec, depth: number): ChildAgent;
  /** Something the main agent should hear between turns (a background agent answered or ended). */
  notifyMain(notification: EventData<"system.notification">): void;
  /** A readable id, unique in the session, seeded by the agent's name. */
  newAgentId(seed: string): string;
  /**
   * A sync agent of the main agent, running inside its task call: `detach` moves it to the background when
   * a person asks (background_agent). Returns the function that forgets it (when the call ends).
   */
  registerSync(agent: { toolCallId: string; agentId: string; detach(): void }): () => void;
  /** Whether a hidden agent (not model-invocable) may start this once: a command allowed it (/subconscious run). */
  takeAllowance?(agentName: string): boolean;
  /** A client's live settings for an agent type (session.tools.updateSubagentSettings): its model and effort, or that it is off. */
  agentSettings?(agentName: string): { model?: string; reasoningEffort?: ReasoningEffort; disabled: boolean };
}
