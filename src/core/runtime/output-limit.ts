/**
 * A response cut by the output-token limit (ChatResponse.truncated, whatever the wire calls it). A cut tool
 * call is never run: its arguments stop mid-way, and one that happens to parse may still be shorter than
 * meant, so every call of a cut response gets a result saying it was not run, and the model tries again. A
 * cut answer continues: the model is asked to go on where it stopped. After a few cuts in a row the run
 * ends with the reason (the limit is too low for what is asked).
 */
import type { RefusedCall } from "../tool-runner.js";

/** Cut responses in a row that the loop recovers from; the next one ends the run. */
export const MAX_OUTPUT_LIMIT_RECOVERIES = 3;

const limitText = (maxOutputTokens: number | undefined) => (maxOutputTokens ? ` (${maxOutputTokens} tokens)` : "");

/** The result of each tool call of a cut response. */
export function cutCallRefusal(maxOutputTokens: number | undefined): RefusedCall {
  return {
    code: "output_limit",
    message: `Not run: your response was cut off by the output limit${limitText(maxOutputTokens)} before it was complete, so none of its tool calls ran (the last one's arguments were incomplete). Make the calls again with shorter arguments: write a long file in parts (create it short, then add to it with edit), and send fewer calls at once.`,
  };
}

/** What the model is told after a cut answer (a system notification), so it goes on instead of starting over. */
export const CONTINUE_AFTER_CUT =
  "Your previous answer was cut off by the output limit. Continue it exactly where it stopped: do not repeat what you already wrote, do not start over, and do not mention the cut.";

/** Why the run ended after too many cuts in a row (a RunResult error of kind "output_limit"). */
export function outputLimitStop(cuts: number, maxOutputTokens: number | undefined): { kind: "output_limit"; message: string } {
  return {
    kind: "output_limit",
    message: `The model's response was cut off by the output limit${limitText(maxOutputTokens)} ${cuts} times in a row, so the run stopped. Raise provider.maxOutputTokens (COPILOT_PROVIDER_MAX_OUTPUT_TOKENS), or ask for less at once.`,
  };
}
