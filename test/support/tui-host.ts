/**
 * The TUI's real session host (src/cli/tui-session-host.ts) configured for tests: the scripted server as the
 * model, temp AGENT_HOME and working directory, interactive sessions.
 */
import { DEFAULT_SUBAGENT_LIMITS } from "../../src/core/tasks/session-subagents.js";
import type { Bootstrap } from "../../src/cli/bootstrap.js";
import type { Settings } from "../../src/config/settings.js";
import { defaultCliOptions } from "../../src/cli/default-options.js";
import { TuiSessionHost } from "../../src/cli/tui-session-host.js";
import { noPermissionFlags, type PermissionFlags } from "../../src/permissions/policy.js";
import { SessionStore } from "../../src/session/session-store.js";
import { sessionPermissions, tempDir, testProviderConfig } from "./engine-harness.js";
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from "./scripted-server.js";

export class TestSessionHost extends TuiSessionHost {
  private constructor(
    boot: Bootstrap,
    cwd: string,
    readonly server: ScriptedServer,
    readonly home: string,
    readonly store: SessionStore,
  ) {
    super(boot, { ...defaultCliOptions(), cwd, customInstructions: false });
  }

  /** `flags`: permission flags as the command line would give them (with their sources); `settings`: settings.json's. */
  static async start(flags: Partial<PermissionFlags> = {}, serverOptions: ScriptedServerOptions = {}, settings: Settings = {}): Promise<TestSessionHost> {
    const server = await startScriptedServer(serverOptions);
    const home = tempDir("tui-home-");
    const cwd = tempDir("tui-cwd-");
    const store = new SessionStore(home);
    const boot: Bootstrap = {
      agentHome: home,
      settings,
      providerConfig: testProviderConfig(server.baseUrl),
      store,
      maxAutopilotContinues: 5,
      permissions: sessionPermissions({ ...noPermissionFlags, ...flags }, settings),
      subagentLimits: DEFAULT_SUBAGENT_LIMITS,
    };
    const host = new TestSessionHost(boot, cwd, server, home, store);
    await host.open(undefined);
    return host;
  }

  async close(): Promise<void> {
    this.shutdown();
    await this.server.close();
  }
}
