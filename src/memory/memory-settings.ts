/** settings.json `memory`, as a session uses it: whether memory is on for a face, the board's budget, consolidation. */

/** The context board's budget unless settings.json says otherwise (about 6,000 characters). */
export const DEFAULT_BOARD_TOKENS = 1_500;
/** settings.json's `memory` key: a boolean (Copilot's spelling) or an object. */
export type MemorySettingValue = boolean | { enabled?: boolean; boardTokens?: number; consolidate?: boolean; consolidateAfterTurns?: number } | undefined;

export interface MemorySettings {
  /** What settings.json says; undefined when it says nothing (then memory is off). */
  enabled?: boolean;
  boardTokens: number;
  /** Start the detached rem-agent after an interactive session with enough user turns. */
  consolidate: boolean;
  consolidateAfterTurns: number;
}

export const DEFAULT_CONSOLIDATE_AFTER_TURNS = 3;

/** The built-in agent that consolidates a session into the board (agents/rem-agent.agent.md). */
export const REM_AGENT = "rem-agent";

export function memorySettings(value: MemorySettingValue): MemorySettings {
  const object = typeof value === "object" ? value : {};
  const enabled = typeof value === "boolean" ? value : object.enabled;
  return {
    ...(enabled !== undefined ? { enabled } : {}),
    boardTokens: object.boardTokens ?? DEFAULT_BOARD_TOKENS,
    consolidate: object.consolidate ?? true,
    consolidateAfterTurns: object.consolidateAfterTurns ?? DEFAULT_CONSOLIDATE_AFTER_TURNS,
  };
}

/**
 * Whether memory is on at a session's start: --enable-memory turns it on anywhere; otherwise `-p` keeps it
 * off (a script's run does not change with a person's settings) and the other faces follow settings.json.
 */
export function memoryEnabledAtStart(input: { flag: boolean; prompt: boolean; settings: MemorySettings }): boolean {
  if (input.flag) return true;
  return !input.prompt && input.settings.enabled === true;
}
