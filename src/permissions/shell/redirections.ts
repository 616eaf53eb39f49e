/**
 * How the analysis reads tree-sitter's redirection nodes. tree-sitter-bash 0.25 hangs the words written after a
 * redirection on it: `find > /dev/null . -delete` is a bare `find` whose redirection has the destinations
 * `/dev/null`, `.` and `-delete`, and `cat <<EOF a b` gives the heredoc the arguments `a` and `b`. Bash gives
 * those words to the command (`cmd > f a b` runs `cmd a b > f`), so the analysis must too: a redirection's
 * target is only its first destination, and every word after it is an argument.
 */
import type { ShellNode } from "./syntax-node.js";

/** Operators that close a descriptor (`2>&-`): they open nothing, so every word after them is an argument. */
const CLOSING = /^[<>]&-$/;

function operatorOf(node: ShellNode): string {
  return node.children.find((child) => child !== null && !child.isNamed)?.text ?? "";
}

function destinationsOf(node: ShellNode): ShellNode[] {
  return node.children.filter((child, index): child is ShellNode => child !== null && node.fieldNameForChild(index) === "destination");
}

/** The file a file redirection opens (or the descriptor it duplicates); undefined when it names none. */
export function redirectionTarget(node: ShellNode): { operator: string; target: ShellNode | undefined } {
  const operator = operatorOf(node);
  return { operator, target: CLOSING.test(operator) ? undefined : destinationsOf(node)[0] };
}

/**
 * The words tree-sitter hangs on a redirection that bash gives to the command as arguments, in the order
 * written: a file redirection's destinations after its target, a heredoc's arguments and those of the
 * redirections written after its start (`cat <<EOF > f a`).
 */
export function redirectionArguments(node: ShellNode): ShellNode[] {
  if (node.type === "heredoc_redirect")
    return node.children.flatMap((child, index) => {
      if (!child) return [];
      if (node.fieldNameForChild(index) === "argument") return [child];
      return child.type.endsWith("_redirect") ? redirectionArguments(child) : [];
    });
  if (node.type !== "file_redirect") return [];
  const destinations = destinationsOf(node);
  return CLOSING.test(operatorOf(node)) ? destinations : destinations.slice(1);
}

/**
 * The parts of a simple command: a `command` node, or the assignments before a heredoc that carries the
 * command's words (`X=1 <<EOF cat a`), followed by `outerRedirects`. `words` are in the order written, the
 * ones carried by redirections (`carried`) included; assignments and comments are not words.
 */
export function commandParts(node: ShellNode, outerRedirects: readonly ShellNode[]): { words: ShellNode[]; carried: ShellNode[]; redirects: ShellNode[] } {
  const words: ShellNode[] = [];
  const redirects = [...outerRedirects];
  if (node.type === "command")
    for (const child of node.namedChildren) {
      if (!child || child.type === "variable_assignment" || child.type === "comment") continue;
      if (child.type.endsWith("_redirect")) redirects.push(child);
      else words.push(child.type === "command_name" ? (child.namedChildren[0] ?? child) : child);
    }
  const carried = redirects.flatMap(redirectionArguments);
  words.push(...carried);
  words.sort((a, b) => a.startIndex - b.startIndex);
  return { words, carried, redirects };
}
