/**
 * The YAML parser, loaded synchronously at its first use (an agent file, a workspace.yaml written by someone
 * else) rather than with the engine: it costs ~20 ms to load and most runs parse no YAML.
 *
 * A build carries its own CommonJS copy (scripts/build.mjs bundles the package to dist/yaml/yaml.cjs and
 * defines AGENT_YAML_DIR): the bundler cannot see through a require() made at run time, so a plain
 * require("yaml") would look for a package an installed copy does not have. Run from source (tests, tsx),
 * the package itself is used. The same pattern as the shell parser's tree-sitter and the sql tool's sql.js.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

declare const AGENT_YAML_DIR: string | undefined;

let parse: ((text: string) => unknown) | undefined;

/** YAML text to a value; throws the library's error (with line and column) on bad input. */
export function parseYaml(text: string): unknown {
  const module = typeof AGENT_YAML_DIR === "string" ? fileURLToPath(new URL("yaml.cjs", new URL(AGENT_YAML_DIR, import.meta.url))) : "yaml";
  parse ??= (createRequire(import.meta.url)(module) as { parse(text: string): unknown }).parse;
  return parse(text);
}
