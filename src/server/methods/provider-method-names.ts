/** The model and provider methods (provider-methods.ts), named apart so the server's front loads no more than their names. */
export const PROVIDER_METHODS = ["session.model.list", "session.model.setReasoningEffort", "session.provider.add", "session.provider.getEndpoint"] as const;
