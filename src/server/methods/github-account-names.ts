/** GitHub account methods agent answers without a GitHub account (github-account-methods.ts). */
export const GITHUB_ACCOUNT_METHODS = ["account.getQuota", "session.gitHubAuth.getStatus", "session.gitHubAuth.setCredentials"] as const;
