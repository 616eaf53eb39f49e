/**
 * The secrets check, as a corpus: every kind of secret (each in a sentence, as a model would write a fact) is
 * refused with a reason that names it, and redacted from text; facts that only look technical (commit hashes,
 * UUIDs, paths, commands, type annotations, placeholders) pass. The keys here are made up, of the right shape.
 */
import { describe, expect, it } from "vitest";
import { findSecrets, redactSecrets, secretReason } from "../../src/memory/secret-patterns.js";
import { refusalOf } from "../../src/memory/memory-space.js";

const SECRETS: [string, string, string][] = [
  ["an AWS access key", "The deploy user is AKIAIOSFODNN7EXAMPLE in us-east-1.", "AKIAIOSFODNN7EXAMPLE"],
  ["an AWS access key", "Temporary creds start ASIAY34FZKBOKMUTVV7A for the CI role", "ASIAY34FZKBOKMUTVV7A"],
  ["a GitHub token", "Use ghp_16C7e42F292c6912E7710c838347Ae178B4a to push.", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"],
  ["a GitHub token", "The bot's token: gho_abcdefghijklmnopqrstuvwxyz0123456789", "gho_abcdefghijklmnopqrstuvwxyz0123456789"],
  [
    "a GitHub token",
    "fine-grained github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012 works",
    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012",
  ],
  ["an OpenAI API key", "OPENAI key is sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXyZ4aBcD", "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXyZ4aBcD"],
  ["an OpenAI API key", "old style sk-4fT9x2LmQ8wZr7NbVc3KdJh6Ye1Ps0Ga5Ui8Wq2E", "sk-4fT9x2LmQ8wZr7NbVc3KdJh6Ye1Ps0Ga5Ui8Wq2E"],
  ["an Anthropic API key", "Claude: sk-ant-api03-Xy7_Qw9-Er4tYu1IoP3aSdF6gHjK8lZx", "sk-ant-api03-Xy7_Qw9-Er4tYu1IoP3aSdF6gHjK8lZx"],
  ["a private key", "The key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----\nend", "-----BEGIN RSA PRIVATE KEY-----"],
  ["a private key", "-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAA", "-----BEGIN OPENSSH PRIVATE KEY-----"],
  [
    "a JSON Web Token",
    "Session cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U in dev",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
  ],
  ["a password or key assignment", "Log in with password=hunter22 on staging", "hunter22"],
  ["a password or key assignment", "DB_PASSWORD: 'Tr0ub4dor&3' is in the vault", "Tr0ub4dor&3"],
  ["a password or key assignment", "set api_key = 9f8e7d6c5b4a in config", "9f8e7d6c5b4a"],
  ["a password or key assignment", "client_secret => 'shh-its-a-secret'", "shh-its-a-secret"],
  ["a password in a URL", "The database is postgres://app:s3cretPass@db.internal:5432/app", "s3cretPass"],
  ["a Slack token", "Slack bot xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"],
  ["a Stripe key", "Stripe: sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"],
  ["a Google API key", "Maps key AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"],
  ["a long random token (a key?)", "the webhook signs with Zq8Xw2Lk9Vb4Nm7Rt1Yp5Hs3Gd6Fj0Ka here", "Zq8Xw2Lk9Vb4Nm7Rt1Yp5Hs3Gd6Fj0Ka"],
];

const HARMLESS = [
  "Run the tests with npm test -- --run before committing.",
  "The bug was fixed in commit 3f9a2c1b7e4d5f6a8b9c0d1e2f3a4b5c6d7e8f90.",
  "The release checksum is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.",
  "Session 1b4e28ba-2fa1-11d2-883f-0016d3cca427 found it (session:1b4e28ba-2fa1-11d2-883f-0016d3cca427#9f0a).",
  "The API key is read from the OPENAI_API_KEY environment variable (src/config/provider-config.ts:40).",
  "password: string is declared in src/types/user.ts:12; never log it.",
  "Set password=$DB_PASSWORD in .env.example; the real one is in the vault.",
  "token: <your token> goes in ~/.npmrc.",
  "apiKey = process.env.API_KEY in src/client.ts:7.",
  "The helper is src/components/ThisIsAVeryLongComponentNameForTheSettingsPage.tsx.",
  "Build with CGO_ENABLED=0 go build ./cmd/server, then docker compose up.",
  "https://github.com/acme/widgets/blob/main/docs/CONTRIBUTING.md explains the branch names.",
  "The secret sauce is the cache in src/cache.ts: invalidate it on writes.",
];

describe("the secrets check", () => {
  it.each(SECRETS)("refuses %s: %j", (kind, text, secret) => {
    expect(secretReason(text)).toBe(`it contains what looks like ${kind}`);
    expect(refusalOf({ subject: "s", fact: text, citations: [] })).toContain("Memories must never hold secrets");
    const redacted = redactSecrets(text);
    expect(redacted).toContain("[REDACTED]");
    expect(redacted).not.toContain(secret);
  });

  it.each(HARMLESS)("lets a harmless fact through: %j", (text) => {
    expect(findSecrets(text)).toEqual([]);
    expect(redactSecrets(text)).toBe(text);
    expect(refusalOf({ subject: "s", fact: text, citations: [] })).toBeUndefined();
  });

  it("checks the subject and the citations too", () => {
    expect(refusalOf({ subject: "ghp_16C7e42F292c6912E7710c838347Ae178B4a", fact: "x", citations: [] })).toContain("GitHub token");
    expect(refusalOf({ subject: "db", fact: "x", citations: ["postgres://u:pw12345@h/db"] })).toContain("password in a URL");
  });

  it("redacts every secret in a text, keeping what is around them", () => {
    expect(redactSecrets("a AKIAIOSFODNN7EXAMPLE b password=hunter22 c")).toBe("a [REDACTED] b password=[REDACTED] c");
  });
});
