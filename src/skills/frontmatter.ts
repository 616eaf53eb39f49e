/**
 * A Markdown file's YAML frontmatter, read fast. Skill files are scanned before the first request, and the
 * YAML package costs ~20 ms to load, so the frontmatter people write (flat `key: value` lines, quoted strings,
 * `[a, b]` and `- item` lists, one level of nested keys, `|` and `>` blocks) is read here; anything else
 * (anchors, flow maps, deeper nesting, a plain scalar YAML would reject) goes to the YAML package, so the
 * answer is always YAML's own (test/skills/frontmatter.test.ts compares the two). The package comes through
 * util/yaml-parser, so an installed build finds its bundled copy.
 */
import { parseYaml } from "../util/yaml-parser.js";

/** `---` line, the YAML, `---` line, then the body. An empty frontmatter is allowed. */
const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)([\s\S]*)$/;

export interface SplitFile {
  yaml: string;
  body: string;
}

/** The frontmatter's text and the body after it; undefined when the file has no frontmatter. */
export function splitFrontmatter(text: string): SplitFile | undefined {
  const match = FRONTMATTER.exec(text);
  return match ? { yaml: match[1] ?? "", body: match[2] ?? "" } : undefined;
}

/** Whether a text holds a whole frontmatter block (its closing `---` line), for reading a file's head only. */
export function frontmatterComplete(text: string): boolean {
  return FRONTMATTER.test(text) || !/^\uFEFF?---[ \t]*\r?\n/.test(text);
}

/** Parses frontmatter YAML; throws YAML's own error for text that is not valid. */
export function parseFrontmatterYaml(text: string): unknown {
  const fast = readSimpleYaml(text);
  return fast === undefined ? parseYaml(text) : fast;
}

// Greedy, trimmed after: a lazy value before `[ \t]*$` would retry the end at every character of a long line.
const KEY_LINE = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)[ \t]*:(?:[ \t]+(.*))?$/;
const GIVE_UP = Symbol("give up");
type Scalar = string | number | boolean | null;

/** YAML 1.2's core schema for a plain scalar; GIVE_UP for one that YAML reads otherwise (or rejects). */
function plainScalar(raw: string): Scalar | typeof GIVE_UP {
  const text = raw.replace(/[ \t]+#.*$/, "");
  if (text === "") return null;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(text) && !/^-?\d/.test(text)) return GIVE_UP;
  if (/:[ \t]|:$|[ \t]#/.test(text)) return GIVE_UP;
  if (/^(?:null|Null|NULL|~)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?\d+$/.test(text)) return Number(text);
  if (/^[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?$/.test(text) || /^0[xo]/i.test(text) || /^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/.test(text)) {
    return GIVE_UP;
  }
  return text;
}

/** A scalar on one line: quoted or plain. */
function inlineScalar(raw: string): Scalar | typeof GIVE_UP {
  if (raw.startsWith('"')) {
    const match = /^"((?:[^"\\]|\\["\\/nt])*)"(?:[ \t]+#.*)?$/.exec(raw);
    if (!match) return GIVE_UP;
    return (match[1] as string).replace(/\\(["\\/nt])/g, (_all, char: string) => (char === "n" ? "\n" : char === "t" ? "\t" : char));
  }
  if (raw.startsWith("'")) {
    const match = /^'((?:[^']|'')*)'(?:[ \t]+#.*)?$/.exec(raw);
    return match ? (match[1] as string).replace(/''/g, "'") : GIVE_UP;
  }
  return plainScalar(raw);
}

/** `[a, "b c", d]` of scalars; nested brackets or quoted commas give up. */
function flowList(raw: string): Scalar[] | typeof GIVE_UP {
  const match = /^\[([^[\]{}]*)\](?:[ \t]+#.*)?$/.exec(raw);
  if (!match) return GIVE_UP;
  const inner = (match[1] as string).trim();
  if (inner === "") return [];
  const items: Scalar[] = [];
  for (const part of inner.split(",")) {
    const item = part.trim();
    if (item === "" || (/^["']/.test(item) && item.includes(","))) return GIVE_UP;
    const value = inlineScalar(item);
    if (value === GIVE_UP) return GIVE_UP;
    items.push(value);
  }
  return items;
}

const indentOf = (line: string): number => /^[ ]*/.exec(line)?.[0].length ?? 0;

/** A `|` or `>` block's text (clip or strip chomping); the lines are the block's, still indented. */
function blockScalar(header: string, lines: readonly string[]): string | typeof GIVE_UP {
  const match = /^([|>])([-+]?)(?:[ \t]+#.*)?$/.exec(header);
  if (!match) return GIVE_UP;
  const [, style, chomp] = match as unknown as [string, string, string];
  if (chomp === "+") return GIVE_UP;
  const content = lines.filter((line) => line.trim() !== "");
  if (content.length === 0) return "";
  const indent = indentOf(content[0] as string);
  if (content.some((line) => indentOf(line) < indent || line.startsWith("\t"))) return GIVE_UP;
  const body = lines.map((line) => line.slice(indent));
  while (body.length > 0 && (body.at(-1) as string).trim() === "") body.pop();
  let text: string;
  if (style === "|") text = body.join("\n");
  else {
    // Folded: lines join with a space, an empty line is a line break; more-indented lines stay as they are in YAML (give up).
    if (body.some((line) => /^[ \t]/.test(line))) return GIVE_UP;
    text = body.reduce((out, line, index) => (index === 0 ? line : line === "" ? `${out}\n` : out.endsWith("\n") ? out + line : `${out} ${line}`), "");
  }
  return chomp === "-" ? text : `${text}\n`;
}

/** The nested value under `key:` with nothing after it: a list of scalars, a map of scalars, or null. */
function nestedValue(lines: readonly string[]): unknown {
  const content = lines.filter((line) => line.trim() !== "" && !/^\s*#/.test(line));
  if (content.length === 0) return null;
  if (content.some((line) => line.startsWith("\t"))) return GIVE_UP;
  const indent = indentOf(content[0] as string);
  if (content.some((line) => indentOf(line) !== indent)) return GIVE_UP;
  if (content.every((line) => /^\s*-(?:[ \t]|$)/.test(line))) {
    const items: Scalar[] = [];
    for (const line of content) {
      const raw = line.trim().slice(1).trim();
      const value = raw === "" ? null : inlineScalar(raw);
      if (value === GIVE_UP) return GIVE_UP;
      items.push(value);
    }
    return items;
  }
  const map: Record<string, Scalar> = {};
  for (const line of content) {
    const match = KEY_LINE.exec(line.trim());
    const raw = match?.[2]?.trimEnd();
    if (!match || raw === undefined) return GIVE_UP;
    const value = raw.startsWith("[") ? GIVE_UP : inlineScalar(raw);
    if (value === GIVE_UP || match[1] === "<<" || Object.hasOwn(map, match[1] as string)) return GIVE_UP;
    map[match[1] as string] = value;
  }
  return map;
}

/** The common subset of YAML, or undefined when the text needs the full parser. */
export function readSimpleYaml(text: string): Record<string, unknown> | undefined {
  const lines = text.split(/\r?\n/);
  const out: Record<string, unknown> = {};
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    index++;
    if (line.trim() === "" || /^#/.test(line)) continue;
    if (/^[ \t]/.test(line)) return undefined;
    const match = KEY_LINE.exec(line);
    if (!match) return undefined;
    const key = match[1] as string;
    const raw = match[2]?.trimEnd();
    // The lines that belong to this key: indented ones and blank ones up to the next key.
    const start = index;
    while (index < lines.length && (/^[ \t]/.test(lines[index] as string) || (lines[index] as string).trim() === "")) index++;
    const owned = lines.slice(start, index);
    let value: unknown;
    if (raw === undefined || raw === "" || /^#/.test(raw)) value = nestedValue(owned);
    else if (/^[|>]/.test(raw)) value = blockScalar(raw, owned);
    else if (owned.some((owned) => owned.trim() !== ""))
      return undefined; // a plain scalar continued on the next lines
    else if (raw.startsWith("[")) value = flowList(raw);
    else value = inlineScalar(raw);
    if (value === GIVE_UP || Object.hasOwn(out, key) || key === "<<") return undefined;
    out[key] = value;
  }
  return out;
}
