/**
 * Fixed texts the model reads in a tool result, in Copilot CLI's words: models are tuned on them, and the
 * Copilot SDK's recorded conversations expect them word for word.
 */

/** A call of a tool the session does not offer. */
export const unknownToolText = (name: string, available: readonly string[]): string =>
  `Tool '${name}' does not exist. Available tools that can be called are ${available.join(", ")}.`;

/** A preToolUse hook said deny. */
export const deniedByHookText = (reason: string | undefined): string => `Denied by preToolUse hook: ${reason ?? "No reason provided"}`;

/** A call that an interrupt stopped, or kept from starting (the tools say it too: a stopped command). */
export { INTERRUPTED_TOOL_TEXT } from "../tools/define-tool.js";

/** A client's tool threw: what it threw stays with the client (it may hold secrets or stack traces). */
export const clientToolThrewText = (name: string, args: unknown): string =>
  `Failed to execute \`${name}\` tool with arguments: ${JSON.stringify(args ?? {})} due to error: Error: Tool execution failed`;
