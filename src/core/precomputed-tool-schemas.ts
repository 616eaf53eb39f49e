/**
 * The built-in tools' parameter schemas as JSON Schema, converted at build time (scripts/build.mjs converts
 * builtinParameters() of builtin-tool-parameters.ts and defines AGENT_TOOL_SCHEMAS_JSON), so a session sends
 * its first request without running zod's converter (~10 ms of CPU for the default tool set). From source
 * (tests, tsx) nothing is precomputed and every schema is converted at run time.
 */
declare const AGENT_TOOL_SCHEMAS_JSON: string | undefined;

let schemas: Record<string, Record<string, unknown>> | undefined;

/** False when running from source: every schema is converted at run time. */
export function toolSchemasPrecomputed(): boolean {
  return typeof AGENT_TOOL_SCHEMAS_JSON === "string";
}

/** The build's JSON Schema of the parameters builtinParameters() names `name`. */
export function precomputedToolSchema(name: string): Record<string, unknown> | undefined {
  if (typeof AGENT_TOOL_SCHEMAS_JSON !== "string") return undefined;
  schemas ??= JSON.parse(AGENT_TOOL_SCHEMAS_JSON) as Record<string, Record<string, unknown>>;
  return schemas[name];
}
