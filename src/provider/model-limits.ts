/**
 * A model's context length as OpenAI-compatible endpoints list it in GET /models. There is no standard
 * field; these are the ones servers use: vLLM `max_model_len`, OpenRouter and Together `context_length`,
 * LM Studio `max_context_length`, Groq `context_window`.
 */
const FIELDS = ["max_model_len", "context_length", "max_context_length", "context_window"] as const;

export function listedContextLength(entry: unknown): number | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  for (const field of FIELDS) {
    const value: unknown = Reflect.get(entry, field);
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  }
  return undefined;
}

/** The prompt limit for a listed context length: what is left after the output the request may ask for. */
export function promptLimitFor(contextLength: number, maxOutputTokens: number | undefined): number {
  return maxOutputTokens !== undefined && maxOutputTokens < contextLength ? contextLength - maxOutputTokens : contextLength;
}
