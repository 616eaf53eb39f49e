/** What the memory tools share: their dependencies, parameters, the permission request, and storing for a call. */
import { z } from "zod";
import type { ToolContext } from "../../tools/define-tool.js";
import { ToolError } from "../../tools/define-tool.js";
import type { PermissionRequest } from "../../protocol/events/index.js";
import { boardLine } from "../context-board.js";
import type { MemoryRecord, MemoryScope } from "../memory-record.js";
import { MemoryRefusal, refusalOf, type MemorySpace, type NewMemory } from "../memory-space.js";

export interface MemoryToolDeps {
  space: MemorySpace;
  sessionId: string;
  transcriptFile: string;
  /** The detached consolidation: user-wide memories need a person, so it keeps only this repository's. */
  unattended: boolean;
}

export const citationsParameter = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .describe("Where the fact can be checked: file paths with lines (src/app.ts:42), or session:<id>#<event id> from a transcript");

export const scopeParameter = z
  .enum(["repository", "user"])
  .optional()
  .describe("repository (default): this repository only. user: the user's own preference, shown in every repository");

export function citationList(citations: string | readonly string[] | undefined): string[] {
  const list = typeof citations === "string" ? citations.split(/[\n,;]+/) : [...(citations ?? [])];
  return list.map((citation) => citation.trim()).filter((citation) => citation !== "");
}

/** The permission request for storing a memory; none when the memory will be refused anyway (never ask about a secret). */
export function storePermission(memory: Pick<NewMemory, "subject" | "fact" | "citations" | "scope">, toolCallId: string): PermissionRequest | null {
  if (refusalOf(memory)) return null;
  return {
    kind: "memory",
    toolCallId,
    subject: memory.scope === "user" ? `${memory.subject} (yours, in every repository)` : memory.subject,
    fact: memory.fact,
    citations: memory.citations.join(", "),
    action: "store",
  };
}

/** Stores a memory for a tool call: refusals become the tool's error, with the reason. */
export async function storeForCall(deps: MemoryToolDeps, memory: Omit<NewMemory, "source">, ctx: ToolContext): Promise<string> {
  if (deps.unattended && memory.scope === "user")
    throw new ToolError("A consolidation run keeps only this repository's memories: a memory for every repository needs a person to approve it.", "refused");
  try {
    const outcome = await deps.space.store({ ...memory, source: { sessionId: deps.sessionId, toolCallId: ctx.toolCallId } });
    const where = memory.scope === "user" ? "the user's memories" : `this repository's memories (${deps.space.key.identity})`;
    return outcome.kind === "stored"
      ? `Stored ${outcome.record.id} in ${where}.`
      : `Already known as ${outcome.record.id}: confirmed (score ${outcome.record.score}).`;
  } catch (error) {
    if (error instanceof MemoryRefusal) throw new ToolError(`Not stored: ${error.message}.`, "refused");
    throw error;
  }
}

export function describeMemories(records: readonly MemoryRecord[], empty: string): string {
  return records.length === 0 ? empty : records.map((record) => `${boardLine(record)} (score ${record.score})`).join("\n");
}

export function scopeOf(scope: MemoryScope | undefined): MemoryScope {
  return scope ?? "repository";
}
