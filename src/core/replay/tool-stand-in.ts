/**
 * A replay does not run every tool again: a call a person answered (ask_user, a plan review), one that was
 * refused, one of a tool that is not there (an MCP server's), and with --dry every call, get the outcome the
 * log recorded instead. The stand-in says which; the tool runner then skips the call.
 */
import { z } from "zod";
import { defineTool, ToolError, type AnyTool, type ToolOutcome } from "../../tools/define-tool.js";
import type { AroundToolCall, ToolCallInfo } from "../tool-runner.js";

/** The recorded outcome to use instead of running this call, or undefined to run it. */
export type ToolStandIn = (call: ToolCallInfo) => ToolOutcome | undefined;

export function withStandIn(standIn: ToolStandIn | undefined, around: AroundToolCall): AroundToolCall {
  if (!standIn) return around;
  return (call, run) => {
    const recorded = standIn(call);
    return recorded ? Promise.resolve(recorded) : around(call, run);
  };
}

/** A tool of the recorded session this one does not have (an MCP server's): only there for the stand-in to answer. */
export function standInTool(name: string): AnyTool {
  return defineTool({
    name,
    description: `The recorded session's ${name} tool; in a replay its recorded results stand in for it.`,
    parameters: z.looseObject({}),
    kind: "control",
    readOnly: false,
    permission: () => null,
    execute: async () => {
      throw new ToolError(`${name} is not available in this replay.`);
    },
  });
}
