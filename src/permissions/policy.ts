/**
 * Builds the rule list from every source: --allow-tool / --deny-tool / --allow-url / --deny-url and
 * settings.json (`permissions.allow|deny|ask`, `allowedUrls`, `deniedUrls`). Order does not matter: deny
 * always wins, then ask, then allow. A rule that does not parse is an error naming its source.
 */
import type { Settings } from "../config/settings.js";
import { parseRule, RuleSyntaxError, splitRuleList, type Rule, type RuleAction } from "./rules.js";

export interface PermissionFlags {
  allowTool: readonly string[];
  denyTool: readonly string[];
  allowUrl: readonly string[];
  denyUrl: readonly string[];
  allowAllTools: boolean;
  allowAllPaths: boolean;
  allowAllUrls: boolean;
  addDir: readonly string[];
  disallowTempDir: boolean;
  availableTools?: readonly string[];
  excludedTools?: readonly string[];
  /** Where each allow-all came from ("--yolo", "COPILOT_ALLOW_ALL"…), for the footer and /allow-all show. */
  allowAllSources?: AllowAllSources;
}

export interface AllowAllSources {
  tools: readonly string[];
  paths: readonly string[];
  urls: readonly string[];
}

export const noPermissionFlags: PermissionFlags = {
  allowTool: [],
  denyTool: [],
  allowUrl: [],
  denyUrl: [],
  allowAllTools: false,
  allowAllPaths: false,
  allowAllUrls: false,
  addDir: [],
  disallowTempDir: false,
};

export function buildRules(flags: PermissionFlags, settings: Settings): { rules: Rule[]; errors: string[] } {
  const rules: Rule[] = [];
  const errors: string[] = [];
  const add = (values: readonly string[] | undefined, action: RuleAction, source: string, asUrl = false) => {
    for (const value of values ?? []) {
      for (const text of splitRuleList(value)) {
        try {
          rules.push(parseRule(asUrl && !text.startsWith("url(") ? `url(${text})` : text, action, source));
        } catch (error) {
          if (!(error instanceof RuleSyntaxError)) throw error;
          errors.push(`${source}: ${error.message}`);
        }
      }
    }
  };
  add(flags.denyTool, "deny", "--deny-tool");
  add(flags.allowTool, "allow", "--allow-tool");
  add(flags.denyUrl, "deny", "--deny-url", true);
  add(flags.allowUrl, "allow", "--allow-url", true);
  add(settings.permissions?.deny, "deny", "settings.json permissions.deny");
  add(settings.permissions?.ask, "ask", "settings.json permissions.ask");
  add(settings.permissions?.allow, "allow", "settings.json permissions.allow");
  add(settings.deniedUrls, "deny", "settings.json deniedUrls", true);
  add(settings.allowedUrls, "allow", "settings.json allowedUrls", true);
  return { rules, errors };
}
