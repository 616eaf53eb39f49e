/** Engine harnesses a test opens, possibly several over one shared scripted server (as a resume does), all closed after it. */
import { afterEach } from "vitest";
import { startHarness, type Harness, type HarnessOptions } from "./engine-harness.js";
import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from "./scripted-server.js";

export interface Harnesses {
  /** Starts a harness; it is closed after the test. */
  start(options?: HarnessOptions): Promise<Harness>;
  /** A scripted server for the test's harnesses to share; closed after the test, once they are. */
  sharedServer(options?: ScriptedServerOptions): Promise<ScriptedServer>;
}

export function useHarnesses(): Harnesses {
  const open: Harness[] = [];
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    for (const harness of open.splice(0)) await harness.close();
    await server?.close();
    server = undefined;
  });
  return {
    start: async (options) => {
      const harness = await startHarness(options);
      open.push(harness);
      return harness;
    },
    sharedServer: async (options) => (server = await startScriptedServer(options)),
  };
}
