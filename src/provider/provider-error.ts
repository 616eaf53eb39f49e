/**
 * The provider failure every layer above the provider sees. Apart from errors.ts (which maps the `openai`
 * SDK's errors onto it), so what only needs the type (the model registry, read before the TUI's first frame)
 * does not load the SDK.
 */
export type ProviderErrorKind =
  | "authentication"
  | "rate_limit"
  | "quota"
  | "context_length"
  | "server"
  | "network"
  | "bad_request"
  /** 404 naming the model: the endpoint does not serve it. */
  | "model_not_found"
  /** 404 for the API path itself: the base URL is wrong. */
  | "not_found"
  /** A 200 with no answer in it (empty, only a role, only reasoning…); another try may differ. */
  | "empty_response"
  /** A 200 that is not a chat completion at all (HTML, binary), or one that never ends. */
  | "invalid_response"
  | "aborted"
  | "unknown";

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly details: {
      statusCode?: number;
      retryAfterMs?: number;
      requestId?: string;
      cause?: unknown;
      /** Nothing answers at the address (connection refused, unknown host): retrying rarely helps. */
      unreachable?: boolean;
    } = {},
  ) {
    super(message);
    this.name = "ProviderError";
  }

  get statusCode(): number | undefined {
    return this.details.statusCode;
  }

  get retryAfterMs(): number | undefined {
    return this.details.retryAfterMs;
  }
}
