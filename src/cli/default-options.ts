/** The options of a bare `agent` (no arguments): what the command line would give, without parsing one. */
import { noPermissionFlags } from "../permissions/policy.js";
import { envAllowAllSources, envAllowsAll, type CliOptions } from "./cli-options.js";

export function defaultCliOptions(env: NodeJS.ProcessEnv = process.env): CliOptions {
  return {
    silent: false,
    outputFormat: "text",
    continue: false,
    permissions: { ...noPermissionFlags, allowAllTools: envAllowsAll(env), allowAllSources: { tools: envAllowAllSources(env), paths: [], urls: [] } },
    customInstructions: true,
    hooks: true,
    cwd: process.cwd(),
  };
}
