/**
 * The built agent sends the built-in tools' parameter schemas the build converted (src/core/
 * precomputed-tool-schemas.ts) instead of converting them at start-up: what goes to the model must be what
 * zod's converter makes of the same parameters now. Needs dist/ (built by `npm test` before vitest runs).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinParameters } from "../../src/core/builtin-tool-parameters.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";

const ws = useE2eWorkspace({ prefix: "tool-schemas" });

/** The tool names the request carries, and the key builtinParameters() converts each under. */
const KEYS: Record<string, string> = { ask_user: "ask_user_choices" };

describe("the built-in tools' schemas in the first request", () => {
  it("are the run-time conversion of their parameters", async () => {
    ws.server.enqueue(text("Hello."));
    const run = await runAgent(["-p", "hi"], { cwd: ws.cwd, env: ws.env() });
    expect(run.code).toBe(0);
    const [request] = ws.server.completionRequests;
    const tools = (request?.body.tools ?? []) as { function: { name: string; parameters: unknown } }[];
    const sent = new Map(tools.map((tool) => [tool.function.name, tool.function.parameters]));
    const parameters = builtinParameters();
    const compared: string[] = [];
    for (const [name, schema] of sent) {
      const own = parameters[KEYS[name] ?? name];
      // task's agent_type is narrowed to the session's agents at run time; it is converted from the same base.
      if (!own || name === "task") continue;
      const { $schema: _ignored, ...expected } = z.toJSONSchema(own, { io: "input" }) as Record<string, unknown>;
      expect(schema, name).toEqual(expected);
      compared.push(name);
    }
    expect(compared).toEqual(expect.arrayContaining(["bash", "view", "edit", "grep", "glob", "web_fetch", "sql", "ask_user", "read_agent"]));
  });
});
