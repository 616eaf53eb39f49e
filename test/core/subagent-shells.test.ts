/**
 * Background shells (for /tasks and the footer's "N background") are the bash calls that went to the
 * background: mode "async", or a sync call past its initial_wait. A subagent's foreground command that is
 * still running inside its call is not one of them.
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDefinition, AgentDirectory } from "../../src/core/tasks/agent-directory.js";
import { waitFor } from "../support/bash-context.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { startScriptedServer, text, toolCall, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";

let harness: Harness | undefined;
let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await harness?.close();
  await closeServer?.();
  harness = undefined;
  closeServer = undefined;
});

const explore: AgentDefinition = {
  source: "builtin",
  userInvocable: false,
  file: "test",
  name: "explore",
  displayName: "explore",
  description: "The explore agent",
  systemPrompt: "You are explore.",
  modelInvocable: true,
};
const directory: AgentDirectory = {
  list: () => [explore],
  get: (name) => (name === "explore" ? explore : undefined),
  modelInvocable: () => [explore],
  userInvocable: () => [],
};

/** A command that says it started, then waits for a `go` file (the test releases it). */
const waiting = (name: string) => `touch ${name}.started; while [ ! -f go ]; do sleep 0.05; done; echo ${name} done`;

async function start(main: ScriptedResponse[], agent: ScriptedResponse[]): Promise<Harness> {
  const server = await startScriptedServer({
    responder: (request: CompletionRequest) => (request.headers["x-initiator"] === "sub-agent" ? agent : main).shift() ?? text("(nothing scripted)"),
  });
  closeServer = () => server.close();
  harness = await startHarness({ agents: directory, server, allowAllTools: true });
  return harness;
}

describe("background shells while a sync subagent runs", () => {
  it("do not include the subagent's foreground bash command; an async one is listed", async () => {
    const h = await start(
      [toolCall("task", { description: "list slowly", prompt: "List.", agent_type: "explore", name: "lister" }), text("Listed.")],
      [
        toolCall("bash", { command: waiting("bg"), description: "Slow watch", mode: "async" }, { id: "call_bg" }),
        toolCall("bash", { command: waiting("fg"), description: "Slow list" }, { id: "call_fg" }),
        text("All listed."),
      ],
    );
    const run = h.session.send("list it");
    await waitFor(() => existsSync(path.join(h.cwd, "fg.started")), 10_000, "the foreground command to start");
    expect(h.session.engine.backgroundShells.map((shell) => shell.description)).toEqual(["Slow watch"]);
    writeFileSync(path.join(h.cwd, "go"), "");
    expect((await run).finalMessage).toBe("Listed.");
  });
});
