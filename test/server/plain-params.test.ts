/**
 * A session's create, its send and a request's session id read without zod (src/util/plain-object.ts, wire.ts) against the
 * schemas they stand in for: a value taken as it is gives back what the schema gives (the same fields, in the same
 * order), anything the schema refuses or would change goes to the schema, and an SDK application's first exchange
 * builds none of the schemas; nor does loading the server's engine.
 */
import { describe, expect, it, vi } from "vitest";
import { PLAIN_SEND, PLAIN_SESSION_CONFIG, readSend, readSessionConfig, sessionIdOf, wireSchemas } from "../../src/server/wire.js";
import { plainObject, type PlainShape } from "../../src/util/plain-object.js";
import { variantsOf } from "../support/json-variants.js";
import { checkPlainReader } from "../support/plain-reader-check.js";

const built = vi.hoisted(() => ({ objects: 0 }));
vi.mock("zod", async (original) => {
  const zod = await original<typeof import("zod")>();
  const counted = (make: (...args: never[]) => unknown) =>
    ((...args: never[]) => {
      built.objects++;
      return make(...args);
    }) as never;
  return { ...zod, z: { ...zod.z, object: counted(zod.z.object), looseObject: counted(zod.z.looseObject) } };
});

/** The create an SDK application sends (the real SDK's fields, BYOK provider). */
const SDK_CREATE = {
  model: "bench-model",
  sessionId: "41c7c16f-97e8-446b-9022-d97c57c68001",
  toolFilterPrecedence: "excluded",
  provider: { type: "openai", baseUrl: "http://127.0.0.1:38905/v1", apiKey: "test" },
  requestPermission: true,
  requestUserInput: false,
  requestElicitation: false,
  requestExitPlanMode: false,
  requestAutoModeSwitch: false,
  hooks: false,
  streaming: true,
  includeSubAgentStreamingEvents: true,
  envValueMode: "direct",
};
const SDK_SEND = { sessionId: "41c7c16f-97e8-446b-9022-d97c57c68001", prompt: "hello" };

/** `base` with an own "__proto__" field, as JSON.parse makes one. */
function withOwnProto(base: unknown): unknown {
  return JSON.parse(JSON.stringify(base).replace("{", '{"__proto__":{"polluted":true},'));
}

const CREATE_PATHS = [
  ...Object.keys(PLAIN_SESSION_CONFIG).map((field) => [field]),
  ...["type", "baseUrl", "apiKey", "headers", "maxPromptTokens", "hasBearerTokenProvider", "other"].map((field) => ["provider", field]),
  ["toolFilterPrecedence"],
];

const CASES: {
  name: string;
  base: unknown;
  paths: string[][];
  plain: PlainShape;
  schema: () => { safeParse(value: unknown, options?: object): { success: boolean; data?: unknown } };
}[] = [
  { name: "session.create", base: SDK_CREATE, paths: CREATE_PATHS, plain: PLAIN_SESSION_CONFIG, schema: () => wireSchemas().sessionConfig },
  {
    name: "session.send",
    base: SDK_SEND,
    paths: [...Object.keys(PLAIN_SEND).map((field) => [field]), ["extra"]],
    plain: PLAIN_SEND,
    schema: () => wireSchemas().send,
  },
];

describe("SDK requests read without zod", () => {
  it("builds no schema for an SDK application's create, send and detach", () => {
    const before = built.objects;
    expect(readSessionConfig(SDK_CREATE)).toEqual(SDK_CREATE);
    expect(readSend(SDK_SEND)).toEqual(SDK_SEND);
    expect(sessionIdOf({ sessionId: "s-1" })).toBe("s-1");
    expect(built.objects).toBe(before);
    wireSchemas();
    expect(built.objects).toBeGreaterThan(before);
  });

  it("loads the server's engine (the session host, its method families, providers.json's reader) without building an object schema", async () => {
    const before = built.objects;
    await import("../../src/cli/server-engine.js");
    await import("../../src/server/session-host.js");
    await import("../../src/config/providers-file.js");
    expect(built.objects).toBe(before);
    // The count sees a module that builds its schemas as it loads.
    await import("../../src/protocol/events/shared-schemas.js");
    expect(built.objects).toBeGreaterThan(before);
  });

  it("knows every field of the schemas, with the schemas' optionality", () => {
    const { sessionConfig, send } = wireSchemas();
    expect(Object.keys(PLAIN_SESSION_CONFIG)).toEqual(Object.keys(sessionConfig.shape));
    expect(Object.keys(PLAIN_SESSION_CONFIG["provider"] as PlainShape)).toEqual(Object.keys(sessionConfig.shape.provider.unwrap().shape));
    expect(Object.keys(PLAIN_SEND)).toEqual(Object.keys(send.shape));
  });

  for (const { name, base, paths, plain, schema } of CASES) {
    it(`takes only ${name} params the schema gives back unchanged, in the same order`, () => {
      const checked = schema();
      const jitless = { safeParse: (value: unknown) => checked.safeParse(value, { jitless: true }) };
      const { taken, refused } = checkPlainReader([...variantsOf(base, paths), withOwnProto(base), [], null, "x"], plain, jitless);
      expect(taken).toBeGreaterThan(20);
      expect(refused).toBeGreaterThan(5);
    });
  }

  it("leaves what the schema refuses to the schema, which says why", () => {
    expect(() => readSessionConfig({ ...SDK_CREATE, streaming: "yes" })).toThrow(/streaming/);
    expect(() => readSessionConfig({ ...SDK_CREATE, reasoningEffort: "extreme" })).toThrow(/reasoningEffort/);
    expect(() => readSend({ sessionId: "s-1" })).toThrow(/prompt/);
    expect(() => sessionIdOf({ sessionId: 7 })).toThrow(/sessionId/);
    expect(() => sessionIdOf(undefined)).toThrow();
  });

  it("reads the fields only the schema reads through it", () => {
    const withTools = { ...SDK_CREATE, tools: [{ name: "lookup", description: "Look it up", extra: 1 }] };
    expect(plainObject(withTools, PLAIN_SESSION_CONFIG)).toBeUndefined();
    expect(readSessionConfig(withTools)).toEqual(wireSchemas().sessionConfig.parse(withTools));
    const effort = { ...SDK_CREATE, reasoningEffort: "high" };
    expect(readSessionConfig(effort).reasoningEffort).toBe("high");
  });
});
