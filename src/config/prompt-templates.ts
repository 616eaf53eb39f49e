/**
 * Prompt templates: Markdown files in the package's top-level `prompts/` folder (our own words, kept out of
 * the code so they read as prose). `{{name}}` placeholders are filled from the values given; a placeholder
 * with no value becomes empty, so a template never leaks braces to the model.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { builtinAgentsDir } from "./builtin-agents-dir.js";

const cache = new Map<string, string>();

/** The package's `prompts/` folder (a sibling of `agents/`). */
export function promptsDir(): string {
  const agents = builtinAgentsDir();
  if (!agents) throw new Error("the package's prompts/ folder was not found");
  return path.join(path.dirname(agents), "prompts");
}

/** The template `prompts/<name>.md`, with its placeholders filled. */
export function promptTemplate(name: string, values: Readonly<Record<string, string>> = {}): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(path.join(promptsDir(), `${name}.md`), "utf8").trimEnd();
    cache.set(name, text);
  }
  return fillTemplate(text, values);
}

export function fillTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{\s*([\w-]+)\s*\}\}/g, (_, key: string) => values[key] ?? "");
}
