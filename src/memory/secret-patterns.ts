/**
 * Secrets by pattern: what a memory must never hold and what a transcript digest blanks out. Known token
 * formats (cloud and API keys, GitHub and Slack tokens, private key blocks, JWTs), credentials in URLs,
 * `password=…`-style assignments with a literal value, and long high-entropy tokens. Hex strings (commit
 * hashes, checksums) and UUIDs (session ids) are not secrets here: facts cite them.
 */

export interface SecretMatch {
  /** What it looks like: "a GitHub token". */
  kind: string;
  start: number;
  end: number;
}

interface Pattern {
  kind: string;
  regex: RegExp;
  /** The capture group holding the secret itself (the value of an assignment); the whole match when absent. */
  group?: number;
  /** A match this rejects is not a secret (a placeholder, a type name). */
  accept?(value: string): boolean;
}

/** Values that stand for a secret without being one. */
const PLACEHOLDER = /^(?:\$|<|\{|%|\*{3}|x{3,}|\.{3}|\u2026|process\.env|os\.environ|env\.|getenv|secrets\.|vault:)/i;
const TYPE_WORDS = new Set([
  "string",
  "number",
  "boolean",
  "null",
  "undefined",
  "none",
  "true",
  "false",
  "str",
  "bytes",
  "optional",
  "required",
  "redacted",
  "hidden",
  "empty",
]);

const literalValue = (value: string): boolean => !PLACEHOLDER.test(value) && !TYPE_WORDS.has(value.toLowerCase().replace(/[,;.)]+$/, ""));

const PATTERNS: readonly Pattern[] = [
  { kind: "a private key", regex: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: "an AWS access key", regex: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[0-9A-Z]{16}\b/g },
  { kind: "a GitHub token", regex: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: "an Anthropic API key", regex: /\bsk-ant-[A-Za-z0-9_-]{16,}/g },
  { kind: "an OpenAI API key", regex: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: "a Stripe key", regex: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: "a Slack token", regex: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: "a Google API key", regex: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: "a JSON Web Token", regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: "a password in a URL", regex: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:([^\s/@]+)@/gi, group: 1, accept: literalValue },
  {
    kind: "a password or key assignment",
    regex:
      /\b(?:[A-Za-z0-9]+[_-])*(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|credentials?)\b["']?\s*(?:=|:|=>)\s*["']?([^\s"'`,;]{4,})/gi,
    group: 1,
    accept: literalValue,
  },
];

/** Bits per character of a string's own letter frequencies. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** A long token that reads like a random key: letters and several digits, high entropy, not hex, not a UUID. */
function looksRandom(token: string): boolean {
  if (/^[0-9a-f-]+$/i.test(token)) return false;
  const digits = token.replace(/[^0-9]/g, "").length;
  const letters = token.replace(/[^A-Za-z]/g, "").length;
  return digits >= 3 && letters >= 8 && entropy(token) >= 4.2;
}

const LONG_TOKEN = /[A-Za-z0-9+=_-]{32,}/g;

/** Every secret-looking span of `text`, in order, without overlaps. */
export function findSecrets(text: string): SecretMatch[] {
  const found: SecretMatch[] = [];
  const overlaps = (start: number, end: number) => found.some((match) => start < match.end && end > match.start);
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern.regex)) {
      const value = pattern.group !== undefined ? match[pattern.group] : match[0];
      if (value === undefined || (pattern.accept && !pattern.accept(value))) continue;
      const start = (match.index ?? 0) + (pattern.group !== undefined ? match[0].lastIndexOf(value) : 0);
      const end = start + value.length;
      if (!overlaps(start, end)) found.push({ kind: pattern.kind, start, end });
    }
  }
  for (const match of text.matchAll(LONG_TOKEN)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (looksRandom(match[0]) && !overlaps(start, end)) found.push({ kind: "a long random token (a key?)", start, end });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The first secret in `text`, described for a refusal, or undefined. */
export function secretReason(text: string): string | undefined {
  const first = findSecrets(text)[0];
  return first ? `it contains what looks like ${first.kind}` : undefined;
}

/** `text` with every secret-looking span replaced by `[REDACTED]`. */
export function redactSecrets(text: string): string {
  const matches = findSecrets(text);
  if (matches.length === 0) return text;
  let out = "";
  let at = 0;
  for (const match of matches) {
    out += `${text.slice(at, match.start)}[REDACTED]`;
    at = match.end;
  }
  return out + text.slice(at);
}
