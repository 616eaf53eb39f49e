/**
 * Whether the files a call changes are all known before it runs: what a rewind can put back depends on it.
 * `create` and `edit` name their file; a shell command's writes are known when the analysis saw every part
 * of it and each program that writes is one whose destinations it names (rm, cp, mv, a redirection…). A
 * command whose effect cannot be seen (inline code, a script, `npm test`, `git checkout`) may change any
 * file: the rewind point it ran in says so.
 */
import type { PermissionFacts } from "./facts.js";

/** Programs whose every write is a path the analysis names (their operands, `-t`, `-o`, `-i`, redirections). */
const NAMED_WRITERS = new Set(["rm", "rmdir", "unlink", "mv", "cp", "install", "ln", "touch", "mkdir", "tee", "sed", "sort", "uniq", "truncate", "chmod"]);

/** Why the call may change files nobody can name before it runs, or undefined when its changes are known. */
export function unknownChanges(facts: PermissionFacts): string | undefined {
  const { shell, request } = facts;
  if (request.kind !== "shell" || !shell) return undefined;
  const command = request.fullCommandText;
  const shown = command.length > 80 ? `${command.slice(0, 79)}…` : command;
  const { analysis } = shell;
  if (analysis.opaque.length > 0) return `\`${shown}\` runs code whose effect cannot be seen (${analysis.opaque[0]})`;
  if (analysis.unparsed.length > 0) return `\`${shown}\` could not be fully analysed`;
  if (analysis.paths.some((mention) => mention.access !== "read" && !mention.literal)) return `\`${shown}\` writes to a path only known when it runs`;
  const writer = analysis.segments.find((segment) => !segment.readOnly && !segment.transparent && !NAMED_WRITERS.has(segment.identifier));
  if (writer) return `\`${shown}\` may change files it does not name (${writer.identifier})`;
  return undefined;
}
