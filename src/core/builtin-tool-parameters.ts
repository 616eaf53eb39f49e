/**
 * The built-in tools' zod parameter objects, by the name the build converts each under (scripts/build.mjs
 * turns them into JSON Schema: precomputed-tool-schemas.ts), and the lookup by the zod object itself, so a
 * tool whose parameters are not these very objects (an MCP tool, a client's tool) is converted as before.
 */
import type { z } from "zod";
import { precomputedToolSchema, toolSchemasPrecomputed } from "./precomputed-tool-schemas.js";
import { bashParameters, listBashParameters, readBashParameters, stopBashParameters } from "../tools/bash/index.js";
import { askUserChoicesTool, askUserFormTool, askUserQuestionTool } from "../tools/ask-user.js";
import { fileTools } from "../tools/file-tools.js";
import { sqlParameters } from "../tools/sql/sql-tool.js";
import { taskCompleteTool } from "../tools/task-complete.js";
import { webFetchTool } from "../tools/web-fetch.js";
import { listAgentsParameters, readAgentParameters, writeAgentParameters } from "./tasks/agent-tools.js";
import { taskParameters } from "./tasks/task-tool.js";

/** The zod objects to convert, by a name the build keys the result with. */
export function builtinParameters(): Record<string, z.ZodType> {
  const named: Record<string, z.ZodType> = {
    bash: bashParameters,
    read_bash: readBashParameters,
    stop_bash: stopBashParameters,
    list_bash: listBashParameters,
    web_fetch: webFetchTool.parameters,
    sql: sqlParameters,
    ask_user_choices: askUserChoicesTool.parameters,
    ask_user_question: askUserQuestionTool.parameters,
    ask_user_form: askUserFormTool.parameters,
    task_complete: taskCompleteTool.parameters,
    task: taskParameters,
    read_agent: readAgentParameters,
    write_agent: writeAgentParameters,
    list_agents: listAgentsParameters,
  };
  for (const tool of fileTools) named[tool.name] = tool.parameters;
  return named;
}

let byParameters: WeakMap<object, Record<string, unknown>> | undefined;

/** The build's JSON Schema of `parameters` (io "input"), when it is one of builtinParameters(); else undefined. */
export function precomputedSchema(parameters: object): Record<string, unknown> | undefined {
  if (!toolSchemasPrecomputed()) return undefined;
  if (!byParameters) {
    byParameters = new WeakMap();
    for (const [name, schema] of Object.entries(builtinParameters())) {
      const json = precomputedToolSchema(name);
      if (json) byParameters.set(schema, json);
    }
  }
  return byParameters.get(parameters);
}
