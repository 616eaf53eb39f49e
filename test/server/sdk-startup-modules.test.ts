/**
 * What the SDK server sets up for a session that is created, sent one prompt and stopped, as an application's
 * first exchange is: not node:crypto (ids come from /dev/urandom, and vscode-jsonrpc's random pipe names look it up
 * when called), and not the hook code, the protocol's shared schemas or the method families the session never
 * calls, which load when first needed (docs/benchmarks.md, "The SDK row's margin"). The built bin/agent.js under the
 * bench's module tracker (npm run build first).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { text } from "../support/scripted-server.js";
import { useSdkWorld } from "../support/sdk-client.js";
import { tempDir } from "../support/temp-dirs.js";

const TRACKER = pathToFileURL(fileURLToPath(new URL("../../bench/module-tracker.mjs", import.meta.url))).href;

const sdk = useSdkWorld();

/** One exchange (create, send, stop) with `env` added to the server's environment. */
async function exchange(env: Record<string, string>): Promise<void> {
  Object.assign(sdk.world.env, env);
  sdk.server.enqueue(text("Hello."));
  const client = sdk.world.client();
  const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", streaming: true, onPermissionRequest: approveAll });
  expect((await session.sendAndWait({ prompt: "hi" }))?.data.content).toBe("Hello.");
  expect(await client.stop()).toEqual([]);
}

describe("the SDK server's first exchange", () => {
  it("never loads node:crypto", async () => {
    const dir = tempDir("sdk-modules-");
    const report = path.join(dir, "report.json");
    const probe = path.join(dir, "probe.cjs");
    writeFileSync(probe, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));`);
    await exchange({ NODE_OPTIONS: `--require ${probe}` });
    const loaded = JSON.parse(readFileSync(report, "utf8")) as string[];
    expect(loaded).toContain("NativeModule net");
    expect(loaded.filter((name) => /^NativeModule (internal\/)?crypto(\/|$)/.test(name))).toEqual([]);
  });

  it("sets up neither the hook code, the shared schemas, nor the method families it does not call", async () => {
    const log = path.join(tempDir("sdk-modules-"), "modules.log");
    await exchange({ NODE_OPTIONS: `--import ${TRACKER}`, BENCH_MODULE_LOG: log });
    const ran = readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("module "))
      .map((line) => path.relative(fileURLToPath(new URL("../..", import.meta.url)), line.slice("module ".length)));
    // The tracker sees the engine's modules (so an empty log cannot pass).
    expect(ran).toEqual(expect.arrayContaining(["src/server/session-host.ts", "src/server/session-methods.ts"]));
    const lazy =
      /^src\/(hooks\/|cli\/session-hook-config\.ts|protocol\/events\/shared-schemas\.ts|server\/(client-hooks|send-attachments)\.ts|server\/methods\/(command|discovery|mcp-config|permission|permission-location|plugin|session-extras|session-state|sessions|shell|task)-methods\.ts)/;
    expect(ran.filter((source) => lazy.test(source))).toEqual([]);
  });
});
