/** `agent --reset-allowed-tools`: forget the approvals remembered for the working directory, say what went. */
import { realpathSync } from "node:fs";
import { resolveAgentHome } from "../config/agent-home.js";
import { forgetRememberedApprovals, type ForgetReport } from "../permissions/forget-approvals.js";
import { ExitCode } from "./exit-codes.js";

export function runResetAllowedTools(cwd: string, env: NodeJS.ProcessEnv = process.env): number {
  // Approvals are remembered under the directory's real path (see open-session), so look it up the same way.
  const dir = realpathSync(cwd);
  let report: ForgetReport;
  try {
    report = forgetRememberedApprovals(resolveAgentHome(env), dir);
  } catch (error) {
    process.stderr.write(`agent: could not update the remembered approvals: ${(error as Error).message}\n`);
    return ExitCode.config;
  }
  const lines =
    report.forgotten.length > 0
      ? [`Forgot the approvals remembered for ${dir}:`, ...report.forgotten.map((line) => `  ${line}`)]
      : [`No approvals were remembered for ${dir}.`];
  for (const parent of report.stillApplying) {
    lines.push(`Approvals remembered for ${parent} still apply here; run agent --reset-allowed-tools -C ${parent} to forget them.`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  return ExitCode.ok;
}
