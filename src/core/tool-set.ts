/** The tools offered to the model in one session, with their JSON Schemas computed once. */
import { z } from "zod";
import type { AnyTool } from "../tools/define-tool.js";
import type { ToolSchema } from "../provider/types.js";

const parametersCache = new WeakMap<AnyTool, Record<string, unknown>>();

/** The parameters' JSON Schema is built once; the description is read each time (the task tool's lists the agents as they are now). */
export function toolSchema(tool: AnyTool): ToolSchema {
  let parameters = parametersCache.get(tool);
  if (!parameters) {
    const { $schema: _ignored, ...rest } = tool.inputSchema ?? (z.toJSONSchema(tool.parameters, { io: "input" }) as Record<string, unknown>);
    parameters = rest;
    parametersCache.set(tool, parameters);
  }
  return { name: tool.name, description: tool.description, parameters };
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
