/**
 * Syntax highlighting for fenced code, via emphasize (highlight.js grammars → ANSI). Loading it takes about
 * 50 ms, so it is imported lazily: until `preloadHighlighter()` has finished, code is shown plain.
 */
import type { Sheet, createEmphasize } from "emphasize";
import type { Theme } from "../theme.js";

type Emphasizer = ReturnType<typeof createEmphasize>;

let emphasizer: Emphasizer | undefined;
let loading: Promise<void> | undefined;

/** Loads the highlighter once; later calls share the same promise. A failure leaves code plain. */
export function preloadHighlighter(): Promise<void> {
  loading ??= import("emphasize").then(
    ({ createEmphasize, common }) => {
      emphasizer = createEmphasize(common);
    },
    () => undefined,
  );
  return loading;
}

export function isHighlighterLoaded(): boolean {
  return emphasizer !== undefined;
}

const ALIASES: Record<string, string> = {
  ts: "typescript",
  tsx: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  node: "javascript",
  sh: "bash",
  shell: "bash",
  zsh: "bash",
  console: "bash",
  shellsession: "bash",
  py: "python",
  python3: "python",
  rb: "ruby",
  rs: "rust",
  golang: "go",
  yml: "yaml",
  md: "markdown",
  jsonc: "json",
  json5: "json",
  kt: "kotlin",
  cs: "csharp",
  "c#": "csharp",
  "c++": "cpp",
  cc: "cpp",
  hpp: "cpp",
  h: "c",
  html: "xml",
  xhtml: "xml",
  svg: "xml",
  toml: "ini",
  dockerfile: "bash",
  make: "makefile",
  patch: "diff",
  text: "plaintext",
  txt: "plaintext",
};

/** The highlight.js name for a fence's language ("ts" → "typescript"), lower-cased. */
export function resolveLanguage(language: string): string {
  const name = language.trim().toLowerCase();
  return ALIASES[name] ?? name;
}

const sheets = new WeakMap<Theme, Sheet>();

function sheetFor(theme: Theme): Sheet {
  const cached = sheets.get(theme);
  if (cached) return cached;
  const chalk = theme.chalk;
  const sheet: Sheet = {
    comment: chalk.gray,
    quote: chalk.gray,
    keyword: chalk.magenta,
    "selector-tag": chalk.magenta,
    built_in: chalk.cyan,
    type: chalk.cyan,
    "class title": chalk.yellow,
    title: chalk.blue,
    section: chalk.blue,
    name: chalk.blue,
    string: chalk.green,
    regexp: chalk.green,
    "meta meta-string": chalk.green,
    addition: chalk.green,
    deletion: chalk.red,
    number: chalk.yellow,
    literal: chalk.yellow,
    symbol: chalk.yellow,
    bullet: chalk.yellow,
    attr: chalk.yellow,
    attribute: chalk.yellow,
    variable: chalk.red,
    "template-variable": chalk.red,
    meta: chalk.gray,
    doctag: chalk.gray,
    link: chalk.underline,
    emphasis: chalk.italic,
    strong: chalk.bold,
  };
  sheets.set(theme, sheet);
  return sheet;
}

/**
 * Highlights code synchronously. Returns the code unchanged when the highlighter is not loaded yet, the
 * language is missing or unknown, or the theme has no colour.
 */
export function highlightCode(code: string, language: string | undefined, theme: Theme): string {
  if (!theme.color || !emphasizer || !language) return code;
  const name = resolveLanguage(language);
  if (name === "plaintext" || !emphasizer.registered(name)) return code;
  try {
    return emphasizer.highlight(name, code, sheetFor(theme)).value;
  } catch {
    return code;
  }
}
