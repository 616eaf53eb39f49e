/**
 * The flags `agent --headless` accepts, checked before the handshake (the SDK's start() must fail on a command
 * line the runtime refuses, with the reason on stderr, as Copilot's does). The SDK puts its caller's
 * arguments first, and a caller written for Copilot may pass Copilot's flags this agent has no use for, so
 * those are accepted (and ignored); a flag neither knows is refused. Kept as a list, not the parser, so the
 * handshake does not wait for the command line's module; test/cli/server-flags.test.ts keeps it in step with
 * program.ts.
 */

/** Copilot CLI's flags (reference: copilot-cli.md), the SDK's, and this agent's own. */
const KNOWN = new Set([
  // Copilot CLI
  "acp",
  "add-dir",
  "add-github-mcp-tool",
  "add-github-mcp-toolset",
  "additional-mcp-config",
  "agent",
  "allow-all",
  "allow-all-mcp-server-instructions",
  "allow-all-paths",
  "allow-all-tools",
  "allow-all-urls",
  "allow-tool",
  "allow-url",
  "assisted-approval",
  "attachment",
  "auto-tier",
  "autopilot",
  "available-tools",
  "banner",
  "bash-env",
  "config-dir",
  "connect",
  "context",
  "continue",
  "deny-tool",
  "deny-url",
  "disable-builtin-mcps",
  "disable-client-telemetry",
  "disable-mcp-server",
  "disallow-temp-dir",
  "dynamic-retrieval",
  "enable-all-github-mcp-tools",
  "enable-mcp-server",
  "enable-memory",
  "env",
  "environment-compute-id",
  "environment-host",
  "excluded-tools",
  "experimental",
  "extension-sdk-path",
  "fleet",
  "header",
  "json",
  "local",
  "log-dir",
  "log-level",
  "max-ai-credits",
  "max-autopilot-continues",
  "mcp-github-auth",
  "mode",
  "model",
  "mouse",
  "output-format",
  "plain-diff",
  "plan",
  "plugin-dir",
  "reasoning-effort",
  "remote",
  "remote-export",
  "repo",
  "resume",
  "rm",
  "screen-reader",
  "secret-env-vars",
  "session-id",
  "share",
  "share-gist",
  "stream",
  "timeout",
  "tools",
  "transport",
  "trust-folder",
  "usage-output-file",
  "yolo",
  "help",
  "version",
  "prompt",
  "interactive",
  "silent",
  "name",
  "ui-server",
  // The SDK's own
  "headless",
  "server",
  "stdio",
  "port",
  "auth-token-env",
  "session-idle-timeout",
  "auto-update",
  "auto-login",
  // This agent's
  "max-turns",
  "fork",
  "reset-allowed-tools",
  "hooks",
  "ask-user",
  "custom-instructions",
  "color",
  "eager-powershell-resolution",
]);

/** The first `--flag` of a server command line that is unknown (`--no-x` is x negated), or undefined. */
export function unknownServerFlag(args: readonly string[]): string | undefined {
  for (const arg of args) {
    if (arg === "--") return undefined;
    if (!arg.startsWith("--")) continue;
    const name = arg.slice(2).split("=")[0] as string;
    if (!KNOWN.has(name) && !(name.startsWith("no-") && KNOWN.has(name.slice(3))) && !KNOWN.has(`no-${name}`)) return arg.split("=")[0];
  }
  return undefined;
}
