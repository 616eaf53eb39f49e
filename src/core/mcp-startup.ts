/**
 * The first prompt waits a short while for MCP servers still starting, so their tools are offered from the
 * start; then the session goes on without the late ones (they join when ready) and says so.
 */
import type { McpManager } from "../mcp/index.js";
import type { Emit } from "./event-sink.js";

/** How long the first prompt waits (AGENT_MCP_STARTUP_WAIT_MS overrides). */
function mcpStartupWaitMs(): number {
  const fromEnv = Number(process.env.AGENT_MCP_STARTUP_WAIT_MS);
  return Number.isFinite(fromEnv) && fromEnv >= 0 && process.env.AGENT_MCP_STARTUP_WAIT_MS !== undefined ? fromEnv : 1_500;
}

export class McpStartupGate {
  private startup?: Promise<void>;
  private done = false;

  constructor(
    private readonly mcp: McpManager,
    private readonly emit: Emit,
  ) {}

  /** Undefined once the wait is over (nothing to wait for). */
  wait(): Promise<void> | undefined {
    if (this.done) return undefined;
    this.startup ??= this.mcp.waitForStartup(mcpStartupWaitMs()).then((late) => {
      this.done = true;
      if (late.length === 0) return;
      this.emit("session.warning", {
        warningType: "mcp",
        message: `MCP server${late.length > 1 ? "s" : ""} ${late.join(", ")} still starting; going on without ${late.length > 1 ? "their" : "its"} tools for now (they join when ready).`,
      });
    });
    return this.startup;
  }
}
