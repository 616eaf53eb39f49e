/**
 * What Copilot reads from the user's GitHub account (the Copilot quota, a session's GitHub sign-in): agent
 * signs in to no GitHub account. A session's model requests carry its provider's credential, so its status
 * is that of the server (`auth.getStatus`: an API key); a GitHub quota or credentials are refused with the
 * reason rather than invented.
 */
import type { GITHUB_ACCOUNT_METHODS } from "./github-account-names.js";
import { sessionIdOf } from "../wire.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";

const NO_GITHUB_ACCOUNT = "agent signs in to no GitHub account";

export function gitHubAccountMethods(owned: Owned): MethodTable<(typeof GITHUB_ACCOUNT_METHODS)[number]> {
  return {
    "account.getQuota": () => {
      throw new Error(`${NO_GITHUB_ACCOUNT}, so it has no Copilot quota to read: its models are the endpoints configured for it.`);
    },
    "session.gitHubAuth.getStatus": (link, params) => {
      ownedSession(owned, link, sessionIdOf(params));
      return { isAuthenticated: true, authType: "api-key", statusMessage: "The session's model requests use its provider's credential." };
    },
    "session.gitHubAuth.setCredentials": (link, params) => {
      ownedSession(owned, link, sessionIdOf(params));
      throw new Error(`${NO_GITHUB_ACCOUNT}: a session's model requests use its provider's credential (provider.apiKey, or session.provider.add).`);
    },
  };
}
