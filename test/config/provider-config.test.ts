import { describe, expect, it } from "vitest";
import { resolveProviderConfig } from "../../src/config/provider-config.js";
import type { Settings } from "../../src/config/settings.js";

const resolve = (env: NodeJS.ProcessEnv, settings: Settings = {}, flags: { model?: string } = {}) =>
  resolveProviderConfig({ flags, env, settings, settingsFile: "/home/me/.agent/settings.json" });

describe("provider configuration", () => {
  it("takes flags over environment over settings", () => {
    const settings: Settings = { provider: { baseUrl: "http://settings/v1", model: "settings-model", apiKey: "settings-key" } };
    expect(resolve({}, settings)).toMatchObject({ ok: true, config: { baseUrl: "http://settings/v1", model: "settings-model", apiKey: "settings-key" } });
    const env = { OPENAI_BASE_URL: "http://env/v1", AGENT_MODEL: "env-model", OPENAI_API_KEY: "env-key" };
    expect(resolve(env, settings)).toMatchObject({ ok: true, config: { baseUrl: "http://env/v1", model: "env-model", apiKey: "env-key" } });
    expect(resolve(env, settings, { model: "flag-model" })).toMatchObject({ ok: true, config: { model: "flag-model" } });
  });

  it("accepts Copilot's variable names as aliases, ours first", () => {
    const copilot = { COPILOT_PROVIDER_BASE_URL: "http://copilot/v1", COPILOT_PROVIDER_API_KEY: "k", COPILOT_MODEL: "m" };
    expect(resolve(copilot)).toMatchObject({ ok: true, config: { baseUrl: "http://copilot/v1", apiKey: "k", model: "m" } });
    expect(resolve({ ...copilot, AGENT_MODEL: "ours" })).toMatchObject({ ok: true, config: { model: "ours" } });
  });

  it("reads the key from the variable apiKeyEnv names", () => {
    const settings: Settings = { provider: { baseUrl: "http://x/v1", model: "m", apiKeyEnv: "MY_KEY" } };
    expect(resolve({ MY_KEY: "secret" }, settings)).toMatchObject({ ok: true, config: { apiKey: "secret" } });
    const missing = resolve({}, settings);
    expect(missing.ok === false && missing.message).toMatch(/apiKeyEnv "MY_KEY".*not set/);
  });

  it("remembers where the key came from, so a refused key can be named", () => {
    const base = { OPENAI_BASE_URL: "http://x/v1", AGENT_MODEL: "m" };
    const source = (env: NodeJS.ProcessEnv, settings: Settings = {}) => {
      const result = resolve({ ...base, ...env }, settings);
      return result.ok ? result.config.credential?.source : `error: ${result.message}`;
    };
    expect(source({ OPENAI_API_KEY: "a", COPILOT_PROVIDER_API_KEY: "b" })).toBe("OPENAI_API_KEY");
    expect(source({ OPENAI_API_KEY: " ", COPILOT_PROVIDER_API_KEY: "b" })).toBe("COPILOT_PROVIDER_API_KEY");
    expect(source({ MY_KEY: "c" }, { provider: { apiKeyEnv: "MY_KEY" } })).toBe("MY_KEY (named by provider.apiKeyEnv in /home/me/.agent/settings.json)");
    expect(source({}, { provider: { apiKey: "d" } })).toBe("provider.apiKey in /home/me/.agent/settings.json");
    expect(source({})).toBeUndefined();
  });

  it("uses OpenAI's endpoint when only OPENAI_API_KEY is set", () => {
    expect(resolve({ OPENAI_API_KEY: "sk", AGENT_MODEL: "gpt" })).toMatchObject({ ok: true, config: { baseUrl: "https://api.openai.com/v1" } });
  });

  it("explains how to configure when the endpoint or model is missing or wrong", () => {
    const none = resolve({});
    expect(none.ok === false && none.message).toMatch(/No model endpoint is configured[\s\S]*OPENAI_BASE_URL[\s\S]*settings\.json/);
    const noModel = resolve({ OPENAI_BASE_URL: "http://x/v1" });
    expect(noModel.ok === false && noModel.message).toMatch(/No model is configured for http:\/\/x\/v1/);
    const bad = resolve({ OPENAI_BASE_URL: "localhost:11434", AGENT_MODEL: "m" });
    expect(bad.ok === false && bad.message).toMatch(/not an http\(s\) URL/);
  });

  it("applies limits, headers and retry settings", () => {
    const settings: Settings = { provider: { baseUrl: "http://x/v1", model: "m", maxPromptTokens: 32_000, headers: { "X-A": "1" }, retry: { maxRetries: 1 } } };
    const result = resolve({ COPILOT_PROVIDER_HEADERS: "X-B: 2\nX-C: three" }, settings);
    expect(result).toMatchObject({
      ok: true,
      config: { maxPromptTokens: 32_000, headers: { "X-A": "1", "X-B": "2", "X-C": "three" }, retry: { maxRetries: 1, baseDelayMs: 1000 } },
    });
    const defaults = resolve({ OPENAI_BASE_URL: "http://x/v1", AGENT_MODEL: "m" });
    expect(defaults).toMatchObject({ ok: true, config: { maxPromptTokens: 128_000, type: "openai" } });
    const badLimit = resolve({ OPENAI_BASE_URL: "http://x/v1", AGENT_MODEL: "m", COPILOT_PROVIDER_MAX_PROMPT_TOKENS: "lots" });
    expect(badLimit.ok === false && badLimit.message).toMatch(/positive integer/);
  });

  it("takes the prompt limit from AGENT_MAX_PROMPT_TOKENS first, and marks a defaulted one so the endpoint's listing may refine it", () => {
    const base = { OPENAI_BASE_URL: "http://x/v1", AGENT_MODEL: "m" };
    expect(resolve({ ...base, AGENT_MAX_PROMPT_TOKENS: "9000", COPILOT_PROVIDER_MAX_PROMPT_TOKENS: "7000" })).toMatchObject({
      ok: true,
      config: { maxPromptTokens: 9000 },
    });
    const fromSettings = resolve(base, { provider: { maxPromptTokens: 5000 } });
    expect(fromSettings.ok && fromSettings.config.maxPromptTokensFrom).toBeUndefined();
    expect(resolve(base)).toMatchObject({ ok: true, config: { maxPromptTokens: 128_000, maxPromptTokensFrom: "default" } });
    const bad = resolve({ ...base, AGENT_MAX_PROMPT_TOKENS: "0" });
    expect(bad.ok === false && bad.message).toMatch(/AGENT_MAX_PROMPT_TOKENS must be a positive integer/);
  });
});

describe("an SDK session's own provider", () => {
  it("names the field its key came in when the endpoint refuses it", async () => {
    const { sessionProvider } = await import("../../src/server/session-provider.js");
    const defaults = { env: { OPENAI_API_KEY: "server-key" }, settings: {}, settingsFile: "/s.json" };
    const byKey = sessionProvider({ model: "m", provider: { baseUrl: "http://x/v1", apiKey: "k" } }, defaults);
    expect(byKey).toMatchObject({ ok: true, config: { credential: { kind: "apiKey", source: "the session's provider.apiKey" } } });
    const byToken = sessionProvider({ model: "m", provider: { baseUrl: "http://x/v1", bearerToken: "t" } }, defaults);
    expect(byToken).toMatchObject({ ok: true, config: { credential: { kind: "bearer", source: "the session's provider.bearerToken" } } });
    const none = sessionProvider({ model: "m", provider: { baseUrl: "http://x/v1" } }, defaults);
    expect(none.ok && none.config.credential).toBeUndefined();
  });
});
