/**
 * `agent --acp`: serves the Agent Client Protocol on stdio for an editor. Composition only: the same
 * bootstrap, provider and session manager as the other faces; stdout carries nothing but protocol messages.
 */
import { AcpAgent } from "../acp/acp-agent.js";
import { stdioStream } from "../acp/stdio.js";
import type { HookSet } from "../hooks/hook-set.js";
import type { Homes } from "../config/agent-home.js";
import { bootstrap, homesOf } from "./bootstrap.js";
import type { CliOptions } from "./cli-options.js";
import { ExitCode } from "./exit-codes.js";
import { anyHooksConfigured } from "./hook-files-present.js";

declare const AGENT_VERSION: string;

const log = (message: string): void => void process.stderr.write(`agent: ${message}\n`);

async function loadHooks(options: CliOptions, homes: Homes, settings: Parameters<typeof anyHooksConfigured>[2]): Promise<HookSet | undefined> {
  if (!options.hooks || !anyHooksConfigured(homes, options.cwd, settings)) return undefined;
  const { hookConfig, untrustedNote } = await import("./session-hook-config.js");
  const hooks = hookConfig({ ...homes, cwd: options.cwd, settings, enabled: options.hooks });
  // Nobody to ask before the editor connects: an untrusted folder's repository hooks stay off.
  if (hooks.repoFiles.length > 0 && !hooks.trusted) log(untrustedNote(hooks, homes.agentHome));
  return hooks.load(hooks.trusted);
}

export async function runAcp(options: CliOptions): Promise<number> {
  const boot = await bootstrap(options);
  if (!boot.ok) {
    log(boot.message);
    return ExitCode.config;
  }
  const { value } = boot;
  // The engine loads while the editor's `initialize` is answered; sessions wait for it.
  const manager = (async () => {
    const [{ SessionManager }, { composeSessionOptions }, { adviceText }, hooks] = await Promise.all([
      import("../core/session-manager.js"),
      import("../core/compose-session.js"),
      import("./permission-advice-text.js"),
      loadHooks(options, homesOf(value), value.settings),
    ]);
    return new SessionManager(
      composeSessionOptions({
        ...value,
        flags: options,
        memory: "server",
        // A person is at the editor; which questions reach them depends on what the editor can ask (AcpAgent says).
        face: { interactive: true, explainAdvice: adviceText, ...(hooks ? { hooks } : {}) },
      }),
    );
  })();
  manager.catch((error: unknown) => log(`could not load the engine: ${(error as Error).message}`));
  const acp = new AcpAgent({ manager, version: AGENT_VERSION, log });
  const connection = acp.connect(stdioStream());
  const stop = () => connection.close();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  await connection.closed;
  await acp.closeAll();
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  // Nothing should keep the process alive once the client is gone.
  setTimeout(() => process.exit(ExitCode.ok), 3000).unref();
  return ExitCode.ok;
}
