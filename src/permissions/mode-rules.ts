/**
 * A mode's ruleset in the decision: evaluated after the user's deny rules and before everything else, so a
 * mode only narrows what the user's rules (and --allow-all-tools) allow. Plan mode changes nothing but its
 * plan: only its own files are written, a shell command runs only when the analysis knows it is read-only
 * (the same knowledge the read-only auto-approval uses), and an MCP tool only when its server marks it so.
 */
import type { PermissionFacts } from "./facts.js";

export interface ModeRules {
  /** Named in reasons: "plan mode". */
  name: string;
  /** Writes are denied, except to these files (resolved paths), which need no approval. */
  writableOnly?: readonly string[];
  /** Only what is known to change nothing runs: read-only shell commands, MCP tools marked read-only. */
  readOnly?: boolean;
  /** How to leave the mode, said in every refusal so the model (and the person) knows the way out. */
  leave?: string;
}

export type ModeVerdict = { verdict: "allow"; reason: string } | { verdict: "deny"; reason: string };

function refuse(mode: ModeRules, what: string): ModeVerdict {
  return { verdict: "deny", reason: `In ${mode.name} ${what}.${mode.leave ? ` ${mode.leave}` : ""}` };
}

/**
 * Why a shell command is not known to change nothing, apart from writing the mode's own files; undefined
 * when it is. Transparent wrappers (`bash -c`, `timeout`) pass when what they run does.
 */
function notReadOnly(facts: PermissionFacts, writable: ReadonlySet<string>): string | undefined {
  const shell = facts.shell;
  if (!shell) return undefined;
  const { analysis } = shell;
  if (analysis.unparsed.length > 0) return `the command could not be analysed (${analysis.unparsed[0]})`;
  if (analysis.opaque.length > 0) return `what it runs cannot be seen: ${analysis.opaque[0]}`;
  const segment = analysis.segments.find((candidate) => !candidate.transparent && !candidate.readOnly);
  if (segment) return `\`${segment.identifier}\` is not known to be read-only`;
  const write = facts.paths.find((mention) => mention.access !== "read" && (mention.resolved === undefined || !writable.has(mention.resolved)));
  if (write || (shell.unnamedWriteDirs?.length ?? 0) > 0) return `it writes ${write ? (write.resolved ?? write.text) : "files"}`;
  return undefined;
}

/** What the mode's ruleset says of the call, when it says anything. */
export function modeDecision(facts: PermissionFacts, mode: ModeRules): ModeVerdict | undefined {
  const { request } = facts;
  const writable = new Set(mode.writableOnly ?? []);
  const byWrites = mode.writableOnly === undefined ? undefined : writesDecision(facts, mode, mode.writableOnly);
  if (byWrites?.verdict === "deny" || !mode.readOnly) return byWrites;
  if (request.kind === "mcp" && !request.readOnly)
    return refuse(mode, `an MCP tool runs only when its server marks it read-only (readOnlyHint), and ${request.serverName}'s ${request.toolName} is not`);
  const why = notReadOnly(facts, writable);
  return why ? refuse(mode, `a shell command runs only when it is known to be read-only, and this one is not: ${why}`) : byWrites;
}

/** Writes outside the mode's own files are refused; its own files are written by the file tools without asking. */
function writesDecision(facts: PermissionFacts, mode: ModeRules, writableOnly: readonly string[]): ModeVerdict | undefined {
  const writable = new Set(writableOnly);
  const writes = facts.paths.filter((mention) => mention.access !== "read");
  const isFileWrite = facts.request.kind === "write";
  const unnamed = (facts.shell?.unnamedWriteDirs?.length ?? 0) > 0;
  if (writes.length === 0 && !isFileWrite && !unnamed) return undefined;
  const elsewhere = writes.filter((mention) => mention.resolved === undefined || !writable.has(mention.resolved));
  if (elsewhere.length > 0 || unnamed || (isFileWrite && writes.length === 0)) {
    const what = elsewhere.map((mention) => mention.resolved ?? mention.text).join(", ") || "files";
    const only = writableOnly.length > 0 ? `; only ${writableOnly.join(", ")} may be written` : "";
    return refuse(mode, `nothing may be changed (this would write ${what})${only}`);
  }
  // A shell command that writes only the mode's own files still goes through the rules.
  return facts.shell ? undefined : { verdict: "allow", reason: `${mode.name} writes its own file` };
}
