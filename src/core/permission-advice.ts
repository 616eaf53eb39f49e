/**
 * What would let a refused call run in a run without a person: a structured suggestion (which flag, which
 * value) that the engine builds from the decision's needs; the CLI face turns it into words
 * (src/cli/permission-advice-text.ts). Every
 * suggestion must be one that works when applied: `--add-dir` takes an existing directory (a file's, or the
 * nearest one that exists for a file not created yet), a URL rule must parse and match, and an ask rule or a
 * check only a person can pass gets no flag at all.
 */
import { statSync } from "node:fs";
import path from "node:path";
import type { Need } from "../permissions/approvals.js";
import type { Decision } from "../permissions/decide.js";
import { parseUrlPattern, RuleSyntaxError, urlRuleMatches } from "../permissions/rules.js";

export type FlagSuggestion =
  | { flag: "--allow-tool"; value: string }
  | { flag: "--add-dir"; value: string }
  | { flag: "--allow-url"; value: string }
  | { flag: "--allow-all-tools" | "--allow-all-paths" | "--allow-all-urls" | "--yolo" };

export type PermissionAdvice =
  /** `narrow` together allow the call; so do `broad` together, and so does --yolo. */
  | { kind: "flags"; narrow: FlagSuggestion[]; broad: FlagSuggestion[] }
  /** An ask rule asks every time, whatever the flags. */
  | { kind: "ask-rule"; rule: string; source: string }
  /** Only a person can approve it (a command the analysis could not follow, a safety check). */
  | { kind: "person-only" };

/** The directory to add for a path: itself when it is one, else the nearest existing directory above it. */
export function directoryToAdd(resolved: string): string {
  let current = resolved;
  for (;;) {
    try {
      if (statSync(current).isDirectory()) return current;
    } catch {
      // does not exist (yet): its parent is what --add-dir can name
    }
    const parent = path.dirname(current);
    if (parent === current) return current;
    current = parent;
  }
}

/** A URL rule that parses and matches the URL, or undefined. */
function urlRuleFor(url: string, origin: string | undefined): string | undefined {
  for (const candidate of [origin, url]) {
    if (candidate === undefined) continue;
    try {
      if (urlRuleMatches(parseUrlPattern(candidate), url)) return candidate;
    } catch (error) {
      if (!(error instanceof RuleSyntaxError)) throw error;
    }
  }
  return undefined;
}

export function adviceFor(decision: Extract<Decision, { verdict: "ask" }>): PermissionAdvice {
  if (decision.rule?.action === "ask") return { kind: "ask-rule", rule: decision.rule.text, source: decision.rule.source };
  return adviceForNeeds(decision.needs);
}

export function adviceForNeeds(needs: readonly Need[]): PermissionAdvice {
  if (needs.length === 0 || needs.some((need) => need.kind === "confirm")) return { kind: "person-only" };
  const narrow = new Map<string, FlagSuggestion>();
  const broad = new Map<string, FlagSuggestion>();
  const add = (into: Map<string, FlagSuggestion>, suggestion: FlagSuggestion) =>
    into.set(`${suggestion.flag} ${"value" in suggestion ? suggestion.value : ""}`, suggestion);
  for (const need of needs) {
    switch (need.kind) {
      case "command":
        add(narrow, { flag: "--allow-tool", value: `shell(${need.identifier})` });
        add(broad, { flag: "--allow-all-tools" });
        break;
      case "write":
        add(narrow, { flag: "--allow-tool", value: "write" });
        add(broad, { flag: "--allow-all-tools" });
        break;
      case "tool":
        add(narrow, { flag: "--allow-tool", value: need.name });
        add(broad, { flag: "--allow-all-tools" });
        break;
      case "path":
        // A path only known at run time cannot be named: only lifting the gate allows it.
        add(narrow, need.resolved ? { flag: "--add-dir", value: directoryToAdd(need.resolved) } : { flag: "--allow-all-paths" });
        add(broad, { flag: "--allow-all-paths" });
        break;
      case "url": {
        const rule = urlRuleFor(need.url, need.origin);
        add(narrow, rule ? { flag: "--allow-url", value: rule } : { flag: "--allow-all-urls" });
        add(broad, { flag: "--allow-all-urls" });
        break;
      }
    }
  }
  return { kind: "flags", narrow: [...narrow.values()], broad: [...broad.values()] };
}
