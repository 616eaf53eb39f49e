/** The model registry as src/config builds it: providers.json's models by `provider/id`, the endpoint for the rest. */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveModels } from "../../src/config/resolve-models.js";
import { tempDir } from "../support/engine-harness.js";

function home(file: unknown): string {
  const dir = tempDir("registry-home-");
  writeFileSync(path.join(dir, "providers.json"), JSON.stringify(file));
  return dir;
}

const file = {
  providers: [
    { name: "local", baseUrl: "http://127.0.0.1:1/v1", apiKey: "k" },
    { name: "az", type: "azure", baseUrl: "https://r.openai.azure.com", azure: { apiVersion: "2025-01-01" }, headers: { "X-A": "1" } },
  ],
  models: [
    { id: "coder", provider: "local", modelId: "gpt-5", maxContextWindowTokens: 64_000, maxOutputTokens: 8_000 },
    { id: "gpt", provider: "az", wireModel: "my-deployment" },
    { id: "coder", provider: "az" },
  ],
};

const resolve = (agentHome: string, env: NodeJS.ProcessEnv = {}, model?: string) =>
  resolveModels({ flags: { model }, env, settings: {}, settingsFile: path.join(agentHome, "settings.json"), agentHome });

describe("the model registry", () => {
  it("selects a providers.json model by provider/id, or by its bare id when only one provider has it", async () => {
    const dir = home(file);
    const exact = await resolve(dir, {}, "local/coder");
    expect(exact.ok && exact.value.config).toMatchObject({
      model: "local/coder",
      wireModel: "coder",
      providerName: "local",
      maxPromptTokens: 56_000,
      maxOutputTokens: 8_000,
    });
    const bare = await resolve(dir, {}, "gpt");
    expect(bare.ok && bare.value.config).toMatchObject({
      model: "az/gpt",
      type: "azure",
      wireModel: "my-deployment",
      azureApiVersion: "2025-01-01",
      headers: { "X-A": "1" },
    });
    const ambiguous = await resolve(dir, {}, "coder");
    expect(ambiguous.ok === false && ambiguous.message).toMatch(/Unknown model "coder".*local\/coder, az\/gpt, az\/coder/);
  });

  it("sends any other name to the configured endpoint, and lists both", async () => {
    const dir = home(file);
    const result = await resolve(dir, { OPENAI_BASE_URL: "http://127.0.0.1:2/v1" }, "llama");
    if (!result.ok) throw new Error(result.message);
    expect(result.value.config).toMatchObject({ model: "llama", baseUrl: "http://127.0.0.1:2/v1" });
    const { registry } = result.value;
    expect(registry.resolve("local/coder")?.baseUrl).toBe("http://127.0.0.1:1/v1");
    expect(registry.resolve("qwen")).toMatchObject({ model: "qwen", baseUrl: "http://127.0.0.1:2/v1" });
    expect(await registry.listModels(async () => ["llama", "qwen"])).toEqual(["local/coder", "az/gpt", "az/coder", "llama", "qwen"]);
    expect(await registry.listModels(() => Promise.reject(new Error("no listing")))).toEqual(["local/coder", "az/gpt", "az/coder", "llama"]);
  });

  it("keeps the endpoint alone when there is no providers.json", async () => {
    const dir = tempDir("registry-home-");
    const result = await resolve(dir, { OPENAI_BASE_URL: "http://127.0.0.1:2/v1", AGENT_MODEL: "m" });
    expect(result.ok && result.value.registry.models).toEqual([]);
    expect(result.ok && result.value.registry.resolve("other")?.model).toBe("other");
  });
});
