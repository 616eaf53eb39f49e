/** The tools offered to the model in one session, with their JSON Schemas computed once. */
import { z } from "zod";
import type { AnyTool } from "../tools/define-tool.js";
import type { ToolSchema } from "../provider/types.js";
import { precomputedSchema } from "./builtin-tool-parameters.js";

const parametersCache = new WeakMap<AnyTool, Record<string, unknown>>();

/**
 * The parameters' JSON Schema is built once; the description and a given inputSchema are read each time (the
 * task tool's list the agents as they are now).
 */
export function toolSchema(tool: AnyTool): ToolSchema {
  let parameters = tool.inputSchema ?? parametersCache.get(tool);
  if (!parameters) {
    parameters = precomputedSchema(tool.parameters) ?? (z.toJSONSchema(tool.parameters, { io: "input" }) as Record<string, unknown>);
    parametersCache.set(tool, parameters);
  }
  const { $schema: _ignored, ...rest } = parameters;
  return { name: tool.name, description: tool.description, parameters: rest };
}

export class ToolSet {
  private readonly byName: Map<string, AnyTool>;

  constructor(tools: readonly AnyTool[]) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  schemas(): ToolSchema[] {
    return [...this.byName.values()].map(toolSchema);
  }

  /** A subset: the tools whose names pass the filter. */
  filter(keep: (name: string) => boolean): ToolSet {
    return new ToolSet([...this.byName.values()].filter((tool) => keep(tool.name)));
  }
}
