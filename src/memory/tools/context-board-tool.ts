/**
 * `context_board {command: add|prune|list}`: how the rem-agent keeps the board. `add` stores a new memory
 * (or, with an `id`, confirms one onto it); `prune` retires memories by id; `list` shows the board as the
 * next session will get it and what did not fit. Changes ask under the `memory` permission kind.
 */
import { z } from "zod";
import { defineTool, ToolError, type AnyTool } from "../../tools/define-tool.js";
import {
  describeMemories,
  citationList,
  citationsParameter,
  scopeOf,
  scopeParameter,
  storeForCall,
  storePermission,
  type MemoryToolDeps,
} from "./memory-tool-parts.js";

const parameters = z.object({
  command: z.enum(["add", "prune", "list"]).describe("add: put a memory on the board; prune: retire memories; list: show the board"),
  subject: z.string().optional().describe("add: what the fact is about"),
  fact: z.string().optional().describe("add: the fact (short, checkable, never a secret)"),
  citations: citationsParameter,
  scope: scopeParameter,
  id: z.string().optional().describe("add: an existing memory to confirm instead of a new one"),
  ids: z.array(z.string()).optional().describe("prune: the memories to retire"),
  reason: z.string().optional().describe("prune: why they are wrong, stale or no longer useful"),
});

type Args = z.infer<typeof parameters>;

function newMemory(args: Args) {
  if (!args.subject || !args.fact) throw new ToolError("add needs a subject and a fact (or the id of a memory to confirm).", "invalid_arguments");
  return { subject: args.subject, fact: args.fact, citations: citationList(args.citations), scope: scopeOf(args.scope) };
}

export function contextBoardTool(deps: MemoryToolDeps): AnyTool {
  const { space } = deps;
  return defineTool({
    name: "context_board",
    description:
      "The context board: the memories every new session in this repository starts with. list: the board and what did not fit. add: a new memory (subject, fact, citations) or, with id, confirm an existing one. prune: retire memories (ids) that are wrong, stale or duplicated.",
    parameters,
    kind: "write",
    readOnly: false,
    onlyWhenListed: true,
    title: (args) => args.command,
    permission(args, ctx) {
      if (args.command === "list") return null;
      if (args.command === "add" && args.id === undefined) return args.subject && args.fact ? storePermission(newMemory(args), ctx.toolCallId) : null;
      const records = (args.command === "add" ? [args.id as string] : (args.ids ?? [])).flatMap((id) => space.find(id) ?? []);
      if (records.length === 0) return null;
      return {
        kind: "memory",
        toolCallId: ctx.toolCallId,
        subject: records.map((record) => record.subject).join(", "),
        action: args.command === "add" ? "confirm" : "retire",
        fact: `${records.map((record) => `${record.id}: ${record.fact}`).join("\n")}${args.reason ? `\nWhy: ${args.reason}` : ""}`,
        citations: [...new Set(records.flatMap((record) => record.citations))].join(", "),
      };
    },
    async execute(args, ctx) {
      switch (args.command) {
        case "list": {
          const board = space.board();
          const shownIds = new Set(board.shown.map((record) => record.id));
          const rest = space.search(undefined, 1_000).filter((record) => !shownIds.has(record.id));
          return {
            content: [
              `On the board (${board.tokens} of ${board.budgetTokens} tokens):`,
              describeMemories(board.shown, "(empty)"),
              ...(rest.length > 0 ? ["", "Not on the board (less relevant, or over the budget):", describeMemories(rest, "")] : []),
            ].join("\n"),
          };
        }
        case "add": {
          if (args.id === undefined) return { content: await storeForCall(deps, newMemory(args), ctx) };
          const voted = await space.vote(args.id, true);
          if (!voted) throw new ToolError(`There is no memory ${args.id}.`, "not_found");
          return { content: `Confirmed ${args.id} (score ${voted.record.score}).` };
        }
        case "prune": {
          const ids = args.ids ?? [];
          if (ids.length === 0) throw new ToolError("prune needs ids: the memories to retire.", "invalid_arguments");
          const removed = await space.forget(ids);
          const missing = ids.filter((id) => !removed.some((record) => record.id === id));
          return {
            content: `Retired ${removed.length} memor${removed.length === 1 ? "y" : "ies"}${removed.length > 0 ? `: ${removed.map((record) => record.id).join(", ")}` : ""}.${missing.length > 0 ? ` Not found: ${missing.join(", ")}.` : ""}`,
          };
        }
      }
    },
  }) as unknown as AnyTool;
}
