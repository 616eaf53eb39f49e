/**
 * Which credential a provider uses, from the places one can be configured, first found wins: a bearer token
 * wins over a key, a key given as text over a key command. Each candidate names its place (a variable, or
 * a field of a file) so that a failed authentication can say where the key came from without showing it.
 */
import { commandCredential, valueCredential, type Credential } from "../provider/credentials.js";

export interface CredentialCandidate {
  kind: "apiKey" | "bearer" | "command";
  value: string | undefined;
  /** Where it is configured, in words: "COPILOT_PROVIDER_API_KEY", 'apiKey of provider "x" in /…/providers.json'. */
  source: string;
}

/** The first candidate that is set, as a credential; undefined when none is (local servers need none). */
export function pickCredential(candidates: readonly CredentialCandidate[]): Credential | undefined {
  const found = candidates.find((candidate) => candidate.value !== undefined && candidate.value.trim() !== "");
  if (!found?.value) return undefined;
  const value = found.value.trim();
  if (found.kind === "command") return commandCredential(value, "apiKey", found.source);
  return valueCredential(value, found.kind, found.source);
}

/**
 * The candidates a provider entry of a file offers (providers.json, settings.json), in Copilot's order;
 * `name` says where each field is (`provider.apiKey in /…/settings.json`).
 */
export function fileCandidates(
  entry: { bearerToken?: string; apiKey?: string; apiKeyCommand?: string },
  name: (field: string) => string,
): CredentialCandidate[] {
  return [
    { kind: "bearer", value: entry.bearerToken, source: name("bearerToken") },
    { kind: "apiKey", value: entry.apiKey, source: name("apiKey") },
    { kind: "command", value: entry.apiKeyCommand, source: name("apiKeyCommand") },
  ];
}
