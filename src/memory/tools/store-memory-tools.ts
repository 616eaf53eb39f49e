/** `store_memory`, `read_memories` and `vote_memory`: the memory tools every agent gets while memory is on. */
import { z } from "zod";
import { defineTool, ToolError, type AnyTool } from "../../tools/define-tool.js";
import {
  citationList,
  citationsParameter,
  describeMemories,
  scopeOf,
  scopeParameter,
  storeForCall,
  storePermission,
  type MemoryToolDeps,
} from "./memory-tool-parts.js";

const storeParameters = z.object({
  subject: z.string().describe("What the fact is about, in a few words (e.g. 'tests', 'release process', 'naming')"),
  fact: z.string().describe("One short fact worth knowing in a later session, stated so it can be checked (never a secret or a value of one)"),
  citations: citationsParameter,
  scope: scopeParameter,
});

export function storeMemoryTool(deps: MemoryToolDeps): AnyTool {
  return defineTool({
    name: "store_memory",
    description: [
      "Remember a fact for later sessions in this repository: a convention, a command that works, where something lives, a pitfall you hit.",
      "Store only what is stable, useful beyond this task and not obvious from the code; one fact per call, with citations to check it by.",
      "Never store secrets, credentials or personal data. The user approves each memory.",
    ].join(" "),
    parameters: storeParameters,
    kind: "write",
    readOnly: false,
    title: (args) => args.subject,
    permission: (args, ctx) =>
      storePermission({ subject: args.subject, fact: args.fact, citations: citationList(args.citations), scope: scopeOf(args.scope) }, ctx.toolCallId),
    execute: async (args, ctx) => ({
      content: await storeForCall(deps, { subject: args.subject, fact: args.fact, citations: citationList(args.citations), scope: scopeOf(args.scope) }, ctx),
    }),
  }) as unknown as AnyTool;
}

const readParameters = z.object({
  query: z.string().optional().describe("Words that must all appear in the memory (subject, fact or citations); all memories without one"),
});

export function readMemoriesTool(deps: MemoryToolDeps): AnyTool {
  return defineTool({
    name: "read_memories",
    description:
      "Search the memories kept from earlier sessions (this repository's and the user's), most relevant first, with their ids and scores. The context board in the system prompt shows the top ones already.",
    parameters: readParameters,
    kind: "read",
    readOnly: true,
    title: (args) => args.query ?? "all memories",
    permission: () => null,
    execute: async (args) => ({
      content: describeMemories(deps.space.search(args.query), args.query ? `No memory matches "${args.query}".` : "No memories yet."),
    }),
  }) as unknown as AnyTool;
}

const voteParameters = z.object({
  id: z.string().describe("The memory's id (m-…), from the context board or read_memories"),
  useful: z.boolean().describe("true: you checked it and it holds (confirms it). false: it is wrong or stale (at score 0 it is retired)"),
  reason: z.string().optional().describe("Why, in a few words"),
});

export function voteMemoryTool(deps: MemoryToolDeps): AnyTool {
  return defineTool({
    name: "vote_memory",
    description:
      "Confirm a memory you verified against the code (useful: true), or mark one wrong or stale (useful: false; a memory whose score reaches 0 is retired).",
    parameters: voteParameters,
    kind: "write",
    readOnly: false,
    title: (args) => args.id,
    permission: (args, ctx) => {
      const record = deps.space.find(args.id);
      if (!record) return null;
      // A not-useful vote on a memory at score 1 retires it; above, it only marks it down.
      const note = args.useful
        ? ""
        : record.score <= 1
          ? "\nIt is wrong or stale: it will be retired."
          : "\nIt is wrong or stale: it is marked down (retired when its score reaches 0).";
      return {
        kind: "memory",
        toolCallId: ctx.toolCallId,
        subject: record.subject,
        action: args.useful ? "confirm" : "retire",
        fact: `${record.fact}${note}${args.reason ? `\nWhy: ${args.reason}` : ""}`,
        citations: record.citations.join(", "),
      };
    },
    async execute(args) {
      const voted = await deps.space.vote(args.id, args.useful);
      if (!voted) throw new ToolError(`There is no memory ${args.id}; read_memories lists them.`, "not_found");
      if (voted.retired) return { content: `Retired ${args.id}: it is no longer on the board.` };
      return { content: `${args.useful ? "Confirmed" : "Marked down"} ${args.id} (score ${voted.record.score}).` };
    },
  }) as unknown as AnyTool;
}
