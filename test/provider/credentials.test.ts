/**
 * Credentials done right: a key command runs once and is kept, and runs again after a 401; a bearer token
 * wins over a key; no key reaches an error message or the log; a 401 names where the key came from.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { resolveProviderConfig } from "../../src/config/provider-config.js";
import { commandCredential, scrubSecrets, valueCredential } from "../../src/provider/credentials.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { httpError, text, WIRES } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A key command that hands out key-1, key-2, … and counts its runs. */
function countingCommand(source = "COPILOT_PROVIDER_API_KEY_COMMAND") {
  const runs: string[] = [];
  const credential = commandCredential("print-a-key", "apiKey", source, async () => {
    runs.push("run");
    return `rotating-key-${runs.length}`;
  });
  return { credential, runs };
}

describe("a key command", () => {
  it("runs once for many requests, and its failure is a clear authentication error", async () => {
    const { credential, runs } = countingCommand();
    expect(await credential.get()).toBe("rotating-key-1");
    expect(await credential.get()).toBe("rotating-key-1");
    expect(runs).toHaveLength(1);
    const failing = commandCredential("false", "apiKey", 'apiKeyCommand of provider "x" in /p.json');
    await expect(failing.get()).rejects.toMatchObject({ kind: "authentication", message: expect.stringMatching(/apiKeyCommand of provider "x".*failed/) });
    const silent = commandCredential("true", "apiKey", "K");
    await expect(silent.get()).rejects.toThrow(/printed nothing/);
  });

  it.each(WIRES)("runs again after a 401 and the request is sent once more with the new key (%s)", async (wire) => {
    const { credential, runs } = countingCommand();
    harness = await startHarness({ wire, provider: { credential } });
    harness.server.enqueue(httpError(401, { message: "expired" }), text("Authorised."));
    expect((await harness.session.send("hi")).finalMessage).toBe("Authorised.");
    expect(runs).toHaveLength(2);
    const sent = harness.server.completionRequests.map((request) => request.headers["x-api-key"] ?? request.headers.authorization);
    expect(sent).toEqual(wire === "anthropic" ? ["rotating-key-1", "rotating-key-2"] : ["Bearer rotating-key-1", "Bearer rotating-key-2"]);
  });

  it("gives up after the second 401, naming the command, with no key in the message or the log", async () => {
    const { credential } = countingCommand();
    harness = await startHarness({ provider: { credential } });
    harness.server.enqueue(
      httpError(401, { message: "Incorrect API key provided: rotating-key-1" }),
      httpError(401, { message: "Incorrect API key provided: rotating-key-2" }),
    );
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("authentication");
    const message = harness.ofType("session.error")[0]?.data.message ?? "";
    expect(message).toMatch(
      /Incorrect API key provided: \[redacted\]\. The API key came from COPILOT_PROVIDER_API_KEY_COMMAND, which was run again after the first refusal; check that the key it prints is right for this endpoint\.$/,
    );
    expect(message).not.toMatch(/rotating-key/);
    harness.session.shutdown();
    expect(readFileSync(harness.store.eventsFileOf(harness.session.id), "utf8")).not.toMatch(/rotating-key/);
  });
});

describe("a refused credential is named", () => {
  it.each(WIRES)("a bearer token refused with 403 is called a bearer token, with its source (%s)", async (wire) => {
    harness = await startHarness({ wire, provider: { credential: valueCredential("token-value-1", "bearer", "COPILOT_PROVIDER_BEARER_TOKEN") } });
    harness.server.enqueue(httpError(403, { message: "forbidden" }));
    await harness.session.send("hi");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(
      /^Authentication failed: 403 forbidden\. The bearer token came from COPILOT_PROVIDER_BEARER_TOKEN; check that it is right for this endpoint and allowed to use this model\.$/,
    );
  });

  it("a providers.json provider that sent no key says where to set one", async () => {
    harness = await startHarness({ provider: { apiKey: undefined, providerName: "team" } });
    harness.server.enqueue(httpError(401, { message: "no key" }));
    await harness.session.send("hi");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(
      /^Authentication failed: 401 no key\. No API key was sent: set apiKey, apiKeyCommand or bearerToken of provider "team" in providers\.json\.$/,
    );
  });
});

describe("where a key comes from", () => {
  const resolve = (env: NodeJS.ProcessEnv) =>
    resolveProviderConfig({ flags: {}, env: { OPENAI_BASE_URL: "http://x/v1", AGENT_MODEL: "m", ...env }, settings: {}, settingsFile: "/s.json" });

  it("prefers COPILOT_PROVIDER_BEARER_TOKEN over any key, and names each source", () => {
    const both = resolve({ COPILOT_PROVIDER_BEARER_TOKEN: "tok", OPENAI_API_KEY: "key" });
    expect(both.ok && both.config.credential).toMatchObject({ kind: "bearer", source: "COPILOT_PROVIDER_BEARER_TOKEN" });
    const key = resolve({ COPILOT_PROVIDER_API_KEY: "key", COPILOT_PROVIDER_API_KEY_COMMAND: "echo other" });
    expect(key.ok && key.config.credential).toMatchObject({ kind: "apiKey", source: "COPILOT_PROVIDER_API_KEY" });
    const command = resolve({ COPILOT_PROVIDER_API_KEY_COMMAND: "echo from-command" });
    expect(command.ok && command.config.credential?.source).toBe("COPILOT_PROVIDER_API_KEY_COMMAND");
  });

  it("reads the type, the wire, the wire model and the Azure version from Copilot's variables, and refuses bad values", () => {
    const anthropic = resolve({ COPILOT_PROVIDER_TYPE: "anthropic", COPILOT_PROVIDER_WIRE_MODEL: "claude-x", COPILOT_PROVIDER_AZURE_API_VERSION: "v9" });
    expect(anthropic).toMatchObject({ ok: true, config: { type: "anthropic", wireModel: "claude-x", azureApiVersion: "v9" } });
    expect(resolve({ COPILOT_PROVIDER_WIRE_API: "responses" })).toMatchObject({ ok: true, config: { wireApi: "responses" } });
    const bad = resolve({ COPILOT_PROVIDER_WIRE_API: "websocket" });
    expect(bad.ok === false && bad.message).toMatch(/COPILOT_PROVIDER_WIRE_API must be "completions", "responses"/);
  });

  it("scrubs every secret it handed out from a text, leaving short values alone", () => {
    expect(scrubSecrets("bad key sk-12345678 and sk-12345678", ["sk-12345678"])).toBe("bad key [redacted] and [redacted]");
    expect(scrubSecrets("a b c", ["b"])).toBe("a b c");
  });
});
