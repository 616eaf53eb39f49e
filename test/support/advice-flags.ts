/**
 * Reads the flags a denial suggests back out of its text ("add A B (or C D, or --yolo)"), as a user would
 * copy them: shell words, single quotes honoured. Each alternative is returned as argv and as PermissionFlags.
 */
import type { PermissionFlags } from "../../src/permissions/policy.js";

/** Splits shell words: plain words and single-quoted parts (with the '\'' idiom). */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let current: string | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === "'") {
      const end = text.indexOf("'", index + 1);
      if (end < 0) throw new Error(`unterminated quote in ${text}`);
      current = (current ?? "") + text.slice(index + 1, end);
      index = end;
    } else if (char === "\\" && index + 1 < text.length) {
      current = (current ?? "") + text[++index];
    } else if (/\s/.test(char)) {
      if (current !== undefined) words.push(current);
      current = undefined;
    } else current = (current ?? "") + char;
  }
  if (current !== undefined) words.push(current);
  return words;
}

/** The alternatives a message offers, each as argv; [] when it offers none. */
export function suggestedArgv(message: string): string[][] {
  const match = /To allow it in a non-interactive run, add (.*?)(?: \(or (.*?), or --yolo\)| \(or --yolo\))\./s.exec(message);
  if (!match) return [];
  return [shellWords(match[1] as string), ...(match[2] ? [shellWords(match[2])] : []), ["--yolo"]];
}

export function flagsFromArgv(argv: readonly string[]): Partial<PermissionFlags> {
  const flags = {
    allowTool: [] as string[],
    addDir: [] as string[],
    allowUrl: [] as string[],
    allowAllTools: false,
    allowAllPaths: false,
    allowAllUrls: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    const value = () => {
      const next = argv[++index];
      if (next === undefined) throw new Error(`${flag} without a value`);
      return next;
    };
    if (flag === "--allow-tool") flags.allowTool.push(value());
    else if (flag === "--add-dir") flags.addDir.push(value());
    else if (flag === "--allow-url") flags.allowUrl.push(value());
    else if (flag === "--allow-all-tools") flags.allowAllTools = true;
    else if (flag === "--allow-all-paths") flags.allowAllPaths = true;
    else if (flag === "--allow-all-urls") flags.allowAllUrls = true;
    else if (flag === "--yolo") Object.assign(flags, { allowAllTools: true, allowAllPaths: true, allowAllUrls: true });
    else throw new Error(`not a flag the advice may suggest: ${flag}`);
  }
  return flags;
}
