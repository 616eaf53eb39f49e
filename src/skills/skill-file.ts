/**
 * One skill: a folder with a `SKILL.md` (Agent Skills' format, as Copilot CLI and Claude Code read it): YAML
 * frontmatter with `name` (kebab-case, 1–64 characters, the folder's name), `description` (1–1,024: what it
 * does and when to use it) and optional `allowed-tools`, `user-invocable`, `disable-model-invocation`,
 * `argument-hint`, `license`, `metadata`; the body is the instructions. Only the frontmatter is read to list
 * a skill; the body is read when it is loaded. Keys other tools add (`model`, `tags`, `version`…) are ignored.
 */
import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import { frontmatterComplete, parseFrontmatterYaml, splitFrontmatter } from "./frontmatter.js";

/** Where a skill comes from, in the order a name is looked for (the first one wins). */
export type SkillSource = "builtin" | "user" | "project" | "plugin" | "custom";

export interface SkillDefinition {
  name: string;
  description: string;
  /** The SKILL.md file. */
  file: string;
  /** Its folder: relative paths and scripts in the body resolve against it. */
  dir: string;
  source: SkillSource;
  pluginName?: string;
  pluginVersion?: string;
  /** `allowed-tools` as written, one entry per tool (Copilot's or Claude's spelling). */
  allowedTools?: string[];
  /** A person may invoke it as `/<name>` (and the palette lists it). */
  userInvocable: boolean;
  /** The model sees it in `<available_skills>` and may load it with the `skill` tool. */
  modelInvocable: boolean;
  argumentHint?: string;
  license?: string;
  /** A repository skill's trust is this folder's (the one holding `.github/skills` …). */
  trustFolder?: string;
}

/** Something wrong with one skill file; `field` names the frontmatter key at fault. */
export interface SkillProblem {
  file: string;
  field?: string;
  message: string;
}

export const SKILL_FILE = "SKILL.md";
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const HEAD_BYTES = 8192;

/** The start of a file, enough for its frontmatter in all but odd cases (then the whole file). */
export function readHead(file: string): string {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const read = readSync(fd, buffer, 0, HEAD_BYTES, 0);
    const head = buffer.toString("utf8", 0, read);
    return read < HEAD_BYTES || frontmatterComplete(head) ? head : readFileSync(file, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Splits `allowed-tools` into entries: a YAML list, or a string of entries separated by commas or spaces outside parentheses. */
export function splitToolList(value: string | readonly string[]): string[] {
  const texts = typeof value === "string" ? [value] : value;
  const parts: string[] = [];
  for (const text of texts) {
    let depth = 0;
    let current = "";
    for (const char of text) {
      if (char === "(") depth++;
      if (char === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === "," || /\s/.test(char))) {
        parts.push(current);
        current = "";
      } else current += char;
    }
    parts.push(current);
  }
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

type Parsed = { ok: true; skill: SkillDefinition } | { ok: false; error: SkillProblem };

export interface SkillOrigin {
  source: SkillSource;
  pluginName?: string;
  pluginVersion?: string;
  trustFolder?: string;
}

/** A frontmatter key that is not what it must be: `field` and why. */
class FieldProblem extends Error {
  constructor(
    readonly field: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** The frontmatter's YAML as a set of keys; a FieldProblem when it is not one. */
function frontmatterOf(text: string): Record<string, unknown> {
  const split = splitFrontmatter(text);
  if (!split) throw new FieldProblem(undefined, "no YAML frontmatter (the file must start with a '---' line, then name and description, then another '---')");
  let raw: unknown;
  try {
    raw = parseFrontmatterYaml(split.yaml) ?? {};
  } catch (error) {
    throw new FieldProblem(undefined, `the frontmatter is not valid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof raw !== "object" || Array.isArray(raw)) throw new FieldProblem(undefined, "the frontmatter must be a set of keys (name: …, description: …)");
  return raw as Record<string, unknown>;
}

/** An optional key of one type: its value, or nothing. */
function optional<T extends boolean | string>(front: Record<string, unknown>, key: string, type: "boolean" | "string"): T | undefined {
  const value = front[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== type) throw new FieldProblem(key, type === "boolean" ? "must be true or false" : "must be text");
  return value as T;
}

function skillOf(file: string, front: Record<string, unknown>, origin: SkillOrigin): SkillDefinition {
  const folder = path.basename(path.dirname(file));
  const name = front.name === undefined ? folder : front.name;
  if (typeof name !== "string" || !NAME.test(name) || name.length > 64) {
    throw new FieldProblem("name", `${JSON.stringify(name)} is not a skill name (lowercase letters, digits and single hyphens, at most 64 characters)`);
  }
  if (name !== folder) throw new FieldProblem("name", `"${name}" must match the skill's folder name "${folder}"`);
  const description = front.description;
  if (typeof description !== "string" || description.trim() === "")
    throw new FieldProblem("description", "missing: say what the skill does and when to use it");
  if (description.length > 1024) throw new FieldProblem("description", `${description.length} characters; at most 1,024`);
  const userInvocable = optional<boolean>(front, "user-invocable", "boolean");
  const modelDisabled = optional<boolean>(front, "disable-model-invocation", "boolean");
  const argumentHint = optional<string>(front, "argument-hint", "string");
  const license = optional<string>(front, "license", "string");
  const tools = front["allowed-tools"];
  if (tools !== undefined && tools !== null && typeof tools !== "string" && !(Array.isArray(tools) && tools.every((tool) => typeof tool === "string"))) {
    throw new FieldProblem("allowed-tools", "must be a list of tool names (a YAML list, or names separated by commas or spaces)");
  }
  const metadata = front.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== "object" || Array.isArray(metadata)))
    throw new FieldProblem("metadata", "must be a set of keys");
  const allowedTools = typeof tools === "string" || Array.isArray(tools) ? splitToolList(tools as string | string[]) : [];
  return {
    name,
    description: description.trim(),
    file,
    dir: path.dirname(file),
    source: origin.source,
    ...(origin.pluginName ? { pluginName: origin.pluginName } : {}),
    ...(origin.pluginVersion ? { pluginVersion: origin.pluginVersion } : {}),
    ...(allowedTools.length > 0 ? { allowedTools } : {}),
    userInvocable: userInvocable ?? true,
    modelInvocable: !(modelDisabled ?? false),
    ...(argumentHint ? { argumentHint } : {}),
    ...(license ? { license } : {}),
    ...(origin.trustFolder ? { trustFolder: origin.trustFolder } : {}),
  };
}

/** Reads one SKILL.md's frontmatter (not its body) into a skill, or says what is wrong with it. */
export function parseSkillFile(file: string, text: string, origin: SkillOrigin): Parsed {
  try {
    return { ok: true, skill: skillOf(file, frontmatterOf(text), origin) };
  } catch (error) {
    if (!(error instanceof FieldProblem)) throw error;
    return { ok: false, error: { file, ...(error.field ? { field: error.field } : {}), message: error.message } };
  }
}

/** The skill's instructions: the file's body, read now (a skill's body is read only when it is loaded). */
export function readSkillBody(file: string): string {
  const text = readFileSync(file, "utf8");
  return (splitFrontmatter(text)?.body ?? text).trim();
}

/** One line per problem: `file: field "name": message`. */
export function describeSkillProblem(problem: SkillProblem): string {
  return `${problem.file}: ${problem.field ? `field "${problem.field}": ` : ""}${problem.message}`;
}
