import { describe, expect, it } from "vitest";
import { listedContextLength, promptLimitFor } from "../../src/provider/model-limits.js";

describe("a model's context length from GET /models", () => {
  it("reads the fields servers use, and nothing else", () => {
    expect(listedContextLength({ id: "m", max_model_len: 32_768 })).toBe(32_768);
    expect(listedContextLength({ id: "m", context_length: 200_000 })).toBe(200_000);
    expect(listedContextLength({ id: "m", max_context_length: 8192 })).toBe(8192);
    expect(listedContextLength({ id: "m", context_window: 131_072 })).toBe(131_072);
    expect(listedContextLength({ id: "m", context_length: "big" })).toBeUndefined();
    expect(listedContextLength({ id: "m" })).toBeUndefined();
    expect(listedContextLength(null)).toBeUndefined();
  });

  it("leaves room for the output a request may ask for", () => {
    expect(promptLimitFor(32_000, 4_000)).toBe(28_000);
    expect(promptLimitFor(32_000, undefined)).toBe(32_000);
    expect(promptLimitFor(4_000, 8_000)).toBe(4_000);
  });
});
