/**
 * A skill's `allowed-tools` as permission rules: allow rules in our grammar (Copilot CLI's), which the
 * session adds while the skill is active, as a mode adds its ruleset. Claude Code's spellings are read as
 * what they mean here (`Bash(git add:*)` is `shell(git add:*)`, `Read` is `read`, `Edit` and `Write` are
 * `write`, `WebFetch(domain:x)` is `url(x)`); an entry that names nothing we have is reported and skipped.
 */
import { parseRule, RuleSyntaxError, type Rule } from "../../permissions/rules.js";

const CLAUDE_NAMES: Record<string, string> = {
  bash: "shell",
  read: "read",
  grep: "read",
  glob: "read",
  ls: "read",
  notebookread: "read",
  edit: "write",
  multiedit: "write",
  write: "write",
  notebookedit: "write",
  webfetch: "url",
};

/** What Claude Code names a tool, in our grammar; other entries are taken as written. */
export function ourSpelling(entry: string): string {
  const match = /^([A-Za-z]+)(?:\((.*)\))?$/s.exec(entry.trim());
  if (!match || !/^[A-Z]/.test(match[1] as string)) return entry.trim();
  const mapped = CLAUDE_NAMES[(match[1] as string).toLowerCase()];
  if (!mapped) return entry.trim();
  const inner = match[2]?.trim();
  if (inner === undefined || inner === "" || inner === "*") return mapped;
  if (mapped === "url") return `url(${inner.replace(/^domain:/, "")})`;
  // Claude's file patterns (`./src/**`) are paths here; a grep or glob pattern is not a path, so it allows every read.
  if (mapped === "read" && !/^(read|notebookread)$/i.test(match[1] as string)) return "read";
  return `${mapped}(${inner})`;
}

export interface SkillRules {
  rules: Rule[];
  /** Entries that are not rules, each with why. */
  skipped: string[];
}

export function allowedToolRules(entries: readonly string[], skillName: string): SkillRules {
  const rules: Rule[] = [];
  const skipped: string[] = [];
  for (const entry of entries) {
    try {
      rules.push(parseRule(ourSpelling(entry), "allow", `skill ${skillName} (allowed-tools)`));
    } catch (error) {
      if (!(error instanceof RuleSyntaxError)) throw error;
      skipped.push(`${entry}: ${error.message}`);
    }
  }
  return { rules, skipped };
}
