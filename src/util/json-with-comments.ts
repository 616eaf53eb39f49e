/**
 * JSON that may carry `//` and `/* … *\/` comments and trailing commas: Copilot CLI writes its managed
 * config.json that way, and a Copilot user's file must read here unchanged. Strings are left exactly as they are.
 */
export function parseJsonWithComments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return JSON.parse(plainJson(text));
  }
}

function plainJson(text: string): string {
  let out = "";
  let index = skipComments(text, 0);
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"') {
      const end = stringEnd(text, index);
      out += text.slice(index, end);
      index = end;
    } else if (char === ",") {
      const next = skipComments(text, index + 1, true);
      // A trailing comma (Copilot's files allow them) is dropped; any other is kept.
      if (text[next] !== "}" && text[next] !== "]") out += char;
      index += 1;
    } else {
      out += char;
      index += 1;
    }
    index = skipComments(text, index);
  }
  return out;
}

/** Past any comments at `index` (and, with `whitespace`, past blanks too). */
function skipComments(text: string, index: number, whitespace = false): number {
  for (;;) {
    if (whitespace && /\s/.test(text[index] ?? "")) index += 1;
    else if (text.startsWith("//", index)) {
      const newline = text.indexOf("\n", index);
      index = newline < 0 ? text.length : newline;
    } else if (text.startsWith("/*", index)) {
      const close = text.indexOf("*/", index + 2);
      index = close < 0 ? text.length : close + 2;
    } else return index;
  }
}

/** The index just past the string literal that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    if (text[index] === "\\") index += 2;
    else if (text[index] === '"') return index + 1;
    else index += 1;
  }
  return text.length;
}
