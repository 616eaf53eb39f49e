/**
 * Which wire a test's agent speaks to the scripted server. Every engine harness and `bin/agent` run uses
 * `AGENT_TEST_WIRE` (chat, responses or anthropic; default chat) unless the test names a wire, so any
 * end-to-end test runs on another wire unchanged: `AGENT_TEST_WIRE=anthropic npx vitest run test/e2e/…`.
 * The server answers every wire at once; the wire is the agent's choice.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { ProviderConfig } from "../../src/provider/provider-config.js";
import { WIRES, type Wire } from "./scripted-wires.js";

export { WIRES, type Wire };

export function currentWire(): Wire {
  const named = process.env.AGENT_TEST_WIRE;
  if (named === undefined || named === "") return "chat";
  if (!(WIRES as readonly string[]).includes(named)) throw new Error(`AGENT_TEST_WIRE must be one of ${WIRES.join(", ")} (got "${named}")`);
  return named as Wire;
}

/** The provider settings that put an engine harness on `wire`. */
export function wireProviderFields(wire: Wire = currentWire()): Partial<ProviderConfig> {
  if (wire === "responses") return { wireApi: "responses" };
  if (wire === "anthropic") return { type: "anthropic" };
  return {};
}

/** The environment that puts `bin/agent` on `wire` (Copilot's BYOK variables). */
export function wireEnv(wire: Wire = currentWire()): Record<string, string> {
  if (wire === "responses") return { COPILOT_PROVIDER_WIRE_API: "responses" };
  if (wire === "anthropic") return { COPILOT_PROVIDER_TYPE: "anthropic" };
  return {};
}

/** The key a request carried, however its wire sends it (`Authorization: Bearer …`, `api-key`, `x-api-key`). */
export function sentKey(headers: IncomingHttpHeaders | undefined): string | undefined {
  const value = headers?.["x-api-key"] ?? headers?.["api-key"] ?? headers?.authorization?.replace(/^Bearer /, "");
  return Array.isArray(value) ? value[0] : value;
}

/** `env` with `wire`'s variables instead of AGENT_TEST_WIRE's: for a test whose scripted bodies are one wire's. */
export function onWire(env: NodeJS.ProcessEnv, wire: Wire): NodeJS.ProcessEnv {
  const { COPILOT_PROVIDER_TYPE: _type, COPILOT_PROVIDER_WIRE_API: _wireApi, ...rest } = env;
  return { ...rest, ...wireEnv(wire) };
}
