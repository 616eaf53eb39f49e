/**
 * Permission rules in Copilot CLI's grammar:
 *   shell                  every shell command
 *   shell(git push)        the command `git push` (any arguments)
 *   shell(git:*)           every command whose words start with `git` (not `gitea`)
 *   write, write(.env)     file writes; a path matches by its trailing components, or exactly if absolute
 *   read, read(path)       file reads, likewise
 *   url, url(https://*.example.com)   URLs, protocol-aware; a bare domain means https://
 *   <name>, <name>(tool)   a tool by name (view, edit, bash…), or an MCP server and one of its tools
 */
import path from "node:path";
import { canonicalOrigin, readUrl, type UrlReading } from "./canonical-url.js";

export type RuleAction = "allow" | "deny" | "ask";

export type RuleTarget =
  | { kind: "shell"; words?: string[]; prefix: boolean }
  | { kind: "write"; path?: string }
  | { kind: "read"; path?: string }
  | { kind: "url"; pattern?: UrlPattern }
  | { kind: "named"; name: string; inner?: string };

export interface UrlPattern {
  protocol: string;
  /** The rule named its protocol; a bare domain did not (it means https for allowing, both for denying). */
  explicitProtocol: boolean;
  /** The canonical host (canonical-url.ts); with `wildcard`, the domain whose subdomains `*.` stands for. */
  host: string;
  wildcard: boolean;
  /** The host is this machine (localhost, 127.0.0.1, ::1, 0.0.0.0…): a deny rule on one covers them all. */
  loopback: boolean;
  /** The port it names (a default port written out counts as that port); undefined for any port. */
  port?: number;
  /** The path's segments as written and as decoded (canonical-url.ts): a prefix of whole segments. */
  segments: string[];
  decoded: string[];
}

export interface Rule {
  action: RuleAction;
  /** The rule as written, e.g. `shell(git:*)`. */
  text: string;
  /** Where it came from, e.g. `--deny-tool`, `settings.json permissions.allow`. */
  source: string;
  target: RuleTarget;
}

export class RuleSyntaxError extends Error {}

export function parseUrlPattern(text: string): UrlPattern {
  const explicitProtocol = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  const withScheme = explicitProtocol ? text : `https://${text}`;
  const invalid = (why = "") => new RuleSyntaxError(`"${text}" is not a URL pattern (e.g. https://*.example.com)${why}`);
  // `*.` (any subdomain) and `:*` (any port) are the pattern's own syntax; the rest is read as a URL is.
  const parts = /^([a-z][a-z0-9+.-]*:\/\/)(\*\.)?([^/?#\\]*?)(:\*)?([/?#\\].*)?$/is.exec(withScheme);
  if (!parts) throw invalid();
  const [, scheme, star, authority, anyPort, rest] = parts as unknown as [string, string, string | undefined, string, string | undefined, string | undefined];
  if (authority.includes("@")) throw invalid(": a URL rule names a host, not a user");
  const reading = readUrl(`${scheme}${authority}${rest ?? ""}`).readings[0];
  if (!reading || reading.host === "") throw invalid();
  if (anyPort && /:\d*$/.test(authority.replace(/^\[.*\]/, ""))) throw invalid();
  const writtenPort = !anyPort && /:\d+$/.test(authority.replace(/^\[.*\]/, ""));
  return {
    protocol: reading.protocol,
    explicitProtocol,
    host: reading.host,
    wildcard: star !== undefined,
    loopback: reading.loopback,
    ...(writtenPort && reading.port !== undefined ? { port: reading.port } : {}),
    segments: reading.segments,
    decoded: reading.decoded,
  };
}

export function parseRule(text: string, action: RuleAction, source: string): Rule {
  const trimmed = text.trim();
  const match = /^([A-Za-z0-9_.@/-]+)(?:\((.*)\))?$/s.exec(trimmed);
  if (!match) throw new RuleSyntaxError(`"${text}" is not a rule (expected e.g. shell, shell(git push), shell(git:*), write(.env), url(https://x.com))`);
  const name = match[1] as string;
  const inner = match[2]?.trim();
  if (match[2] !== undefined && inner === "") throw new RuleSyntaxError(`"${text}": empty parentheses`);
  let target: RuleTarget;
  switch (name) {
    case "shell": {
      if (inner === undefined) {
        target = { kind: "shell", prefix: false };
        break;
      }
      const prefix = inner.endsWith(":*");
      const command = prefix ? inner.slice(0, -2).trim() : inner;
      if (command === "" || command.includes(":*")) throw new RuleSyntaxError(`"${text}": use shell(command) or shell(command:*)`);
      target = { kind: "shell", words: command.split(/\s+/), prefix };
      break;
    }
    case "write":
    case "read":
      target = inner === undefined ? { kind: name } : { kind: name, path: inner };
      break;
    case "url":
      target = inner === undefined ? { kind: "url" } : { kind: "url", pattern: parseUrlPattern(inner) };
      break;
    default:
      target = inner === undefined ? { kind: "named", name } : { kind: "named", name, inner };
  }
  return { action, text: trimmed, source, target };
}

/** Splits a flag value on commas that are not inside parentheses: `shell(a),write` → two rules. */
export function splitRuleList(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of value) {
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (char === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/** Whether a shell rule covers a command (argv with the program's base name first). */
export function shellRuleMatches(target: Extract<RuleTarget, { kind: "shell" }>, argv: readonly string[], identifier: string, action: RuleAction): boolean {
  if (!target.words) return true;
  const words = target.words;
  if (action === "deny") {
    // A deny reaches every use: the program, then the rule's other words in order anywhere after it, so an
    // option before the subcommand (`kubectl -n prod delete`) does not slip past `shell(kubectl delete)`.
    if (argv[0] !== words[0]) return false;
    let position = 1;
    for (const word of words.slice(1)) {
      while (position < argv.length && argv[position] !== word) position++;
      if (position >= argv.length) return false;
      position++;
    }
    return true;
  }
  const startsWith = words.every((word, index) => argv[index] === word);
  if (target.prefix) return startsWith;
  return identifier === words.join(" ") || (words.length > identifier.split(" ").length && startsWith);
}

/**
 * `write(/abs/x)` matches only that path. A relative rule is relative to the workspace when `workspace` is
 * given (allow rules: they must not reach a `src/` elsewhere), the way .gitignore reads its patterns: one
 * component (`.env`) names that file or directory at any depth inside it, several (`src/**`) are anchored at
 * its root. Without `workspace` (deny and ask rules, where wider is safer) it matches the path's trailing
 * components anywhere: `write(.env)` refuses every `.env`.
 */
export function pathRuleMatches(rulePath: string | undefined, resolved: string, workspace?: string): boolean {
  if (rulePath === undefined) return true;
  if (path.isAbsolute(rulePath)) return path.resolve(rulePath) === resolved;
  const want = rulePath.split(/[\\/]+/).filter((part) => part !== "" && part !== ".");
  if (workspace !== undefined) {
    const relative = path.relative(workspace, resolved);
    if (relative === "" || relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return false;
    const inside = relative.split(path.sep);
    if (want.length > 1) return matchesFromStart(want, inside);
    return want.length === 1 && inside.some((part) => globComponent(want[0] as string).test(part));
  }
  // Matching anywhere, `dir/**` is `dir`: the directory itself and everything inside it.
  if (want.length > 1 && want.at(-1) === "**") want.pop();
  const have = resolved.split(path.sep).filter((part) => part !== "");
  if (want.length === 0 || want.length > have.length) return false;
  // The path ends with the rule's components, or lies inside a directory that does.
  for (let end = have.length; end >= want.length; end--) {
    const window = have.slice(end - want.length, end);
    if (want.every((part, index) => globComponent(part).test(window[index] as string))) return true;
  }
  return false;
}

/** Whether the rule's components name `have` or a directory it lies in; `**` stands for any number of them. */
export function matchesFromStart(want: readonly string[], have: readonly string[]): boolean {
  if (want.length === 0) return true;
  const [first, ...rest] = want as [string, ...string[]];
  if (first === "**") return rest.length === 0 || have.some((_, start) => matchesFromStart(rest, have.slice(start)));
  return have.length > 0 && globComponent(first).test(have[0] as string) && matchesFromStart(rest, have.slice(1));
}

/** Whether a glob written in a command (`.e*`) could name a path the rule names (`.env`). */
export function globMayMatchRule(rulePath: string, glob: string): boolean {
  const last = rulePath
    .split(/[\\/]+/)
    .filter(Boolean)
    .at(-1);
  const pattern = glob.split("/").filter(Boolean).at(-1);
  if (last === undefined || pattern === undefined) return false;
  return globComponent(pattern).test(last);
}

function globComponent(part: string): RegExp {
  return new RegExp(
    `^${part
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, "[^/]*")
      .replace(/\?/g, "[^/]")}$`,
  );
}

/** Web protocols reach the same servers; a raw connection (nc, gopher://, dict://) can speak any protocol. */
const WEB = new Set(["http", "https", "ws", "wss"]);
const RAW = new Set(["tcp", "udp", "telnet", "gopher", "gophers", "dict", "socks4", "socks4a", "socks5", "socks5h"]);

function readingMatches(pattern: UrlPattern, reading: UrlReading, deny: boolean): boolean {
  // A bare domain allows https. A deny names a host to keep away from: every web protocol and every raw
  // connection to it, and (for a bare domain) its subdomains; a deny on one loopback name covers them all.
  const protocolMatches =
    reading.protocol === pattern.protocol || (deny && (RAW.has(reading.protocol) || (WEB.has(reading.protocol) && WEB.has(pattern.protocol))));
  if (!protocolMatches) return false;
  const subdomain = reading.host.endsWith(`.${pattern.host}`);
  const hostMatches =
    (deny && pattern.loopback && reading.loopback) ||
    (pattern.wildcard
      ? subdomain || (deny && reading.host === pattern.host)
      : reading.host === pattern.host || (deny && !pattern.explicitProtocol && subdomain));
  if (!hostMatches) return false;
  if (pattern.port !== undefined && reading.port !== pattern.port && !(deny && reading.port === undefined)) return false;
  // Whole segments: `/public/` is /public and below, never /publicity. An allow needs the path inside the
  // prefix however a server reads it (raw and decoded); a deny, either way and in any case.
  const startsWith = (have: readonly string[], want: readonly string[]) =>
    want.length <= have.length && want.every((segment, index) => (deny ? segment.toLowerCase() === have[index]?.toLowerCase() : segment === have[index]));
  const raw = startsWith(reading.segments, pattern.segments);
  const decoded = startsWith(reading.decoded, pattern.decoded);
  return deny ? raw || decoded : raw && decoded;
}

export function urlRuleMatches(pattern: UrlPattern | undefined, url: string, action: RuleAction = "allow"): boolean {
  if (!pattern) return true;
  const deny = action === "deny";
  const { readings, complete } = readUrl(url);
  // A deny cannot be dodged with a URL some parser reads differently or not at all; an allow needs every reading.
  if (deny) return !complete || readings.some((reading) => readingMatches(pattern, reading, true));
  return complete && readings.every((reading) => readingMatches(pattern, reading, false));
}

/** The URL's origin in canonical form (what a "yes to every URL from here" remembers), when it has one. */
export function urlOrigin(url: string): string | undefined {
  return canonicalOrigin(url);
}
